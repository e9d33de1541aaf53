import type { JsonBodyRecipe } from "./json-body";
import type { MultipartRecipe } from "./multipart";
import type { BadCredentials, QueryPair } from "./request-parts";
import type { Text } from "./tokens";

/** Who sends a request: nobody, a signed-in user, an admin, an API key of the user, or someone with forged credentials. */
export type Caller = "anonymous" | "user" | "admin" | "apiKey" | "badCredential";

/** The real accounts and objects of the fuzzed deployment, so valid parts of a request name things that exist. */
export interface FuzzFixtures {
  user: { id: string; accessToken: string };
  admin: { accessToken: string };
  apiKey: { id: string; value: string };
  decisionId: string;
  imageAssetId: string;
  /** A live share link's token; without one, a well-formed token nobody issued. */
  shareToken?: string;
  /** One of the user's panel presets; without one, an id nobody has. */
  presetId?: string;
  /** One of the API key's batches; without one, an id nobody has. */
  batchId?: string;
  /** One of the user's webhook endpoints; without one, an id nobody has. */
  webhookId?: string;
}

export type BodyRecipe = JsonBodyRecipe | { kind: "multipart"; form: MultipartRecipe };

/**
 * One generated request, as fast-check prints it when a property fails: what is bad in it, not
 * the bytes (huge values stay recipes). Parts not made bad are the operation's valid ones.
 */
export interface RequestRecipe {
  caller: Caller;
  /** For `badCredential`: the forged headers. */
  credentials?: BadCredentials;
  /** Path parameters replaced by ids nobody owns (wire form); the others name the fixtures' objects. */
  badParams: Record<string, Text>;
  query: QueryPair[];
  headers: Record<string, Text | Text[]>;
  body?: BodyRecipe;
}
