/** Largest body of the routes that carry no image (sign-in, keys, forms, deletes). */
export const SMALL_BODY_LIMIT_BYTES = 100 * 1024;
/** Deepest nesting of arrays and objects a JSON body may have (a decision request needs 2). */
export const MAX_JSON_DEPTH = 20;
/** Most values (array items and object members) a JSON body may hold (a decision request needs well under 100). */
export const MAX_JSON_VALUES = 10_000;

export const BODY_MESSAGES = {
  compressed: (encoding: string) =>
    `Compressed request bodies are not accepted (Content-Encoding: ${encoding}): send the body uncompressed, without a Content-Encoding header.`,
  tooLarge: (bytes: number) => `The request body is too large: send at most ${Math.round(bytes / 1024)} KB.`,
  tooDeep: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep: send at most ${MAX_JSON_DEPTH}.`,
  tooManyValues: `The request body holds more than ${MAX_JSON_VALUES.toLocaleString("en-US")} JSON values: send at most ${MAX_JSON_VALUES.toLocaleString("en-US")}.`,
} as const;
