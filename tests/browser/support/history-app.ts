import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { DecisionResponseSchema, type AuthResponse, type DecisionResponse, type EnsembleOptions, type StoredDecision } from "@sd/contracts";
import { callApi, signInByMail, SmtpCapture, storedDecision } from "@sd/testing";
import { browserUnavailable, useBrowserApp, type BrowserApp, type EnvOverrides } from "./browser-app";
import { pngImage } from "./png";

/** The authenticated decision endpoint (a signed-in user's decisions are stored with their images). */
export const DECISION_PATH = "/api/ensembled-llm-categorical-decision";
export const HISTORY_PATH = "/api/decision-history";

export interface HistoryApp extends BrowserApp {
  /** A new account signed in over HTTP (magic link read from the SMTP capture). */
  signIn(name: string): Promise<AuthResponse>;
  /** The account of exactly `email` (created the first time), signed in the same way. */
  signInAs(email: string): Promise<AuthResponse>;
  /** Hands a session to the page as the app keeps it (auth_user / auth_token), then opens `path`. */
  openAs(page: Page, auth: Pick<AuthResponse, "user" | "tokens">, path: string): Promise<void>;
  /** Asks the models through the authenticated endpoint as `auth`'s user (with any ensemble options); the decision is then stored. */
  decide(auth: AuthResponse, body: { question: string; categories: string[]; images?: string[] } & EnsembleOptions): Promise<DecisionResponse>;
  /** Stores decisions of `auth`'s user directly (exact timestamps and fields), oldest to newest as given. */
  seed(auth: AuthResponse, decisions: Partial<StoredDecision>[]): Promise<StoredDecision[]>;
}

/**
 * The browser app for the history pages: the stack with a real SMTP capture, so tests sign in
 * real accounts by magic link, make decisions over HTTP and seed exact histories in the store.
 */
export function useHistoryApp(envOverrides: EnvOverrides = {}): HistoryApp {
  let smtp: SmtpCapture | undefined;
  beforeAll(async () => {
    if (browserUnavailable) return;
    smtp = await SmtpCapture.start();
  });
  // Read when the stack starts, after the capture runs (its port is known only then).
  const app = useBrowserApp((emulatorUrl) => ({
    MAGIC_LINK_PER_IP_PER_HOUR: "10000",
    ...(typeof envOverrides === "function" ? envOverrides(emulatorUrl) : envOverrides),
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
  }));
  afterAll(async () => {
    await smtp?.close();
  });

  let n = 0;
  const extra: Omit<HistoryApp, keyof BrowserApp> = {
    async signIn(name) {
      return extra.signInAs(`${name}.${++n}.${Date.now()}@example.com`);
    },
    async signInAs(email) {
      if (!smtp) throw new Error("the SMTP capture starts in beforeAll");
      return signInByMail(app.url, smtp, email);
    },
    openAs,
    async decide(auth, body) {
      const answer = await callApi(app.url, DECISION_PATH, auth.tokens.access_token, { body });
      if (answer.status !== 200) throw new Error(`decision answered ${answer.status}: ${answer.text}`);
      return DecisionResponseSchema.parse(answer.body);
    },
    async seed(auth, decisions) {
      const stored = decisions.map((fields) => storedDecision({ user_id: auth.user.id, user_email: auth.user.email, ...fields }));
      for (const decision of stored) {
        if (!(await app.stack.store.decisions.insertOnce(decision))) throw new Error(`decision ${decision.id} was already stored`);
      }
      return stored;
    },
  };
  return new Proxy(app as HistoryApp, {
    get(target, key, receiver) {
      if (key in extra) return extra[key as keyof typeof extra];
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * Hands a session to the page as the app keeps it (auth_user / auth_token), then opens `path`; on
 * the page's own app unless `base` names another one.
 */
export async function openAs(page: Page, { user, tokens }: Pick<AuthResponse, "user" | "tokens">, path: string, base = ""): Promise<void> {
  await page.goto(`${base}/contact`);
  await page.evaluate(
    ({ user, tokens }) => {
      localStorage.setItem("auth_user", JSON.stringify(user));
      localStorage.setItem("auth_token", JSON.stringify(tokens));
    },
    { user, tokens },
  );
  await page.goto(`${base}${path}`);
}

/** A JWT whose `exp` has passed: the app reads it as an expired session (it never reaches the server). */
export function expiredAccessToken(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "someone", exp: Math.floor(Date.now() / 1000) - 60 })}.${Buffer.from("sig").toString("base64url")}`;
}

/** A small truecolour PNG of `width` x `height` (a gradient, so each tint differs), as bytes. */
export const pngBytes = (width: number, height: number, tint = 128): Buffer => pngImage(width, height, { tint });

export const pngDataUrl = (width: number, height: number, tint?: number) => `data:image/png;base64,${pngBytes(width, height, tint).toString("base64")}`;
