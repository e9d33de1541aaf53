import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, AUTH_MESSAGES, AuthTokensSchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { LiveClient, postJson } from "@sd/testing/client";
import { callApi, type ApiAnswer } from "@sd/testing/history";
import { callRow, expectAnswer, expectedFor, ownerSecrets, ownerView, privilegedOrder, unprivilegedCallers } from "@sd/testing/security/access-runner";
import { ACCESS_TABLE, QUEUES, rowName, type AccessRow, type OwnedObjects } from "@sd/testing/security/access-table";
import { createOwnedObjects, signInCallers, type Caller, type Callers } from "@sd/testing/security/callers";
import { send } from "@sd/testing/security/http";
import { encodeJwt, hs256, payloadOf } from "@sd/testing/security/jwt";
import { KEY_ATTACKS, TOKEN_ATTACKS, TOKEN_CONTROLS, type ForgeryContext } from "@sd/testing/security/token-attacks";
import { magicLinkToken } from "@sd/testing/sign-in";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * The security suite, run as an attacker would: a BOLA/BFLA table over every object and admin
 * endpoint, forged and misused tokens against protected endpoints (HTTP and Socket.IO), refresh
 * tokens and magic links replayed 20 times at once, and the rate limits. Objects are made through
 * the API; the product's JWT_SECRET is set here so near-miss tokens (expired, wrong audience) can be
 * signed with the real key.
 */

const JWT_SECRET = `security-suite-${randomUUID()}`;
const ADMIN_EMAIL = `security-admin-${randomUUID()}@example.com`;
const PUBLIC_DECISION = "/api/ensembled-llm-categorical-decision-public";
const BAD_TOKEN = { status: 401, body: { detail: AUTH_MESSAGES.invalidCredentials } };

const emulator = useEmulator();
// Many accounts sign in from this one address, some twice (the logout row ends a session of its own).
const main = useStackWithMail(emulator, { JWT_SECRET, ADMIN_EMAILS: ADMIN_EMAIL, MAGIC_LINK_PER_IP_PER_HOUR: "1000", MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: "1000", MAGIC_LINK_PER_EMAIL_PER_HOUR: "1000" });

const answerOf = ({ status, body }: ApiAnswer) => ({ status, body });

describe("the BOLA/BFLA table", () => {
  let callers: Callers;
  let objects: OwnedObjects;
  let before: Record<string, unknown>;
  beforeAll(async () => {
    callers = await signInCallers(main, ADMIN_EMAIL, JWT_SECRET);
    objects = await createOwnedObjects(main, callers.owner);
    before = await ownerView(main, objects, callers.admin);
  });

  it("has a row for every operation of /openapi.json that needs a credential or names an object, and for the queue view", async () => {
    const document = (await (await fetch(`${main.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ["get", "post", "put", "patch", "delete"].includes(method))
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, guarded: (operation.security?.length ?? 0) > 0 || path.includes("{") })),
    );
    const rows = ACCESS_TABLE.map(rowName);
    expect(new Set(rows).size, "one row per endpoint").toBe(rows.length);
    expect(
      operations.filter((op) => op.guarded && !rows.includes(op.name)).map((op) => op.name),
      "operations that need a credential or name an object, without a row in ACCESS_TABLE",
    ).toEqual([]);
    const documented = new Set(operations.map((op) => op.name));
    expect(rows.filter((row) => !documented.has(row) && !row.includes(` ${QUEUES}/`)), "rows of operations /openapi.json does not have").toEqual([]);
    expect(rows).toContain(`GET ${QUEUES}/`);
  });

  const label = (row: AccessRow, caller: Caller) => (row.kind === "admin" && caller.role !== "anonymous" ? `a signed-in non-admin (${caller.role})` : caller.role);

  describe("anyone but the owner, or on admin endpoints anyone but an admin", () => {
    it.each(ACCESS_TABLE.map((row) => [rowName(row), row] as const))("%s", async (name, row) => {
      for (const caller of unprivilegedCallers(row, callers)) {
        const where = `${name} as ${label(row, caller)}`;
        const answer = await callRow(main, row, objects, caller);
        expectAnswer(answer, expectedFor(row, caller), where);
        for (const secret of ownerSecrets(objects)) expect(answer.text, `${where}: the answer holds the owner's ${secret}`).not.toContain(secret);
        if (row.objectId) {
          const unknown = await callRow(main, row, objects, caller, true);
          expect(answerOf(answer), `${where}: the owner's object must answer exactly like an unknown id`).toEqual(answerOf(unknown));
        }
      }
    });

    it("changed nothing of the owner's (read back as the owner)", async () => {
      expect(await ownerView(main, objects, callers.admin)).toEqual(before);
    });
  });

  describe("the owner, and an admin on admin endpoints (reads first, deletes last)", () => {
    it.each(privilegedOrder(ACCESS_TABLE).map((row) => [rowName(row), row] as const))("%s", async (name, row) => {
      if (row.kind === "object") {
        const answer = await callRow(main, row, objects, callers.owner);
        expectAnswer(answer, row.owner, `${name} as the owner`);
        const shown = row.ownerSees?.(objects) ?? (row.method === "get" ? row.objectId?.(objects) : undefined);
        if (shown) expect(answer.text, `${name}: the owner's answer shows their object`).toContain(shown);
        return;
      }
      expectAnswer(await callRow(main, row, objects, callers.admin), row.admin, `${name} as an admin`);
      // Only the queue view's writes have an undo, and it takes the same session cookie.
      if (row.undo) expect((await send(main.url, row.undo(objects), { cookie: callers.admin.queueCookie! })).status, `${name}: undo`).toBe(200);
    });
  });
});

describe("forged and misused tokens", () => {
  let callers: Callers;
  let objects: OwnedObjects;
  let live: LiveClient;
  /** Forgeries against a user's endpoints impersonate `user`; against admin endpoints, `admin`. */
  let contexts: Record<"user" | "admin", ForgeryContext>;

  beforeAll(async () => {
    callers = await signInCallers(main, ADMIN_EMAIL, JWT_SECRET);
    objects = await createOwnedObjects(main, callers.owner);
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rsa = { privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
    const contextOf = (victim: Caller): ForgeryContext => ({
      secret: JWT_SECRET,
      victim: { accessToken: victim.session!.tokens.access_token, refreshToken: victim.session!.tokens.refresh_token, apiKey: victim.apiKey!.keyvalue },
      attackerToken: callers.other.session!.tokens.access_token,
      adminEmail: ADMIN_EMAIL,
      queueSession: callers.adminQueueSession,
      rsa,
    });
    contexts = { user: contextOf(callers.owner), admin: contextOf(callers.admin) };
    live = new LiveClient(main.url);
  });
  afterAll(() => live?.close());

  const get = async (path: string, token: string) => answerOf(await send(main.url, { method: "get", path }, { bearer: token }));
  /** Each target: whom a forgery impersonates, how it is tried, and what an accepted and a refused token get. */
  const targets = [
    { name: "GET /api/decision-history (bearer)", victim: "user", attempt: (token: string) => get("/api/decision-history", token), accepted: { status: 200 }, refused: BAD_TOKEN },
    { name: "GET /api/admin/usage-stats (admin)", victim: "admin", attempt: (token: string) => get("/api/admin/usage-stats", token), accepted: { status: 200 }, refused: BAD_TOKEN },
    {
      name: "GET /api/image-assets/{id} (optional bearer: a bad token is no anonymous call)",
      victim: "user",
      attempt: (token: string) => get(`/api/image-assets/${objects.assetIds[0]}`, token),
      accepted: { status: 200 },
      refused: { status: 401, body: { success: false, message: AUTH_MESSAGES.invalidCredentials, imageAssets: [], total: 0 } },
    },
    {
      name: "Socket.IO history:watch",
      victim: "user",
      attempt: (token: string) => live.watchHistory(token),
      accepted: { ok: true },
      refused: { ok: false, error: AUTH_MESSAGES.invalidCredentials },
    },
  ] as const;

  describe.each(targets)("$name", (target) => {
    it.each(TOKEN_CONTROLS)("accepts $name", async (control) => {
      expect(await target.attempt(control.forge(contexts[target.victim]))).toMatchObject(target.accepted);
    });
    it.each(TOKEN_ATTACKS)("refuses $name", async (attack) => {
      expect(await target.attempt(attack.forge(contexts[target.victim]))).toEqual(target.refused);
    });
  });

  it("a correctly signed token of a non-admin claiming is_admin is still a 403: the role comes from ADMIN_EMAILS only", async () => {
    const claims = { ...payloadOf(callers.other.session!.tokens.access_token), is_admin: true, role: "admin", admin: true };
    const token = encodeJwt({ alg: "HS256", typ: "JWT" }, claims, hs256(JWT_SECRET));
    expect(await get("/api/admin/usage-stats", token)).toEqual({ status: 403, body: { detail: ADMIN_MESSAGES.forbidden } });
    expect(await get("/api/auth/admin-check", token)).toEqual({ status: 200, body: { is_admin: false } });
  });

  describe.each(["/v1/decision-history", "/decision-history"])("GET %s (SD-API-KEY)", (path) => {
    it("accepts the key (the control)", async () => {
      expect((await send(main.url, { method: "get", path }, { apiKey: contexts.user.victim.apiKey })).status).toBe(200);
    });
    it.each(KEY_ATTACKS)("refuses $name", async (attack) => {
      expect(answerOf(await send(main.url, { method: "get", path }, attack.credential(contexts.user)))).toEqual({ status: 401, body: { detail: attack.detail } });
    });
  });
});

describe("single use under 20 parallel tries", () => {
  const adminCheck = async (token: string) => answerOf(await callApi(main.url, "/api/auth/admin-check", token));
  const refresh = (token: string) => postJson(`${main.url}/api/auth/refresh`, { refresh_token: token });

  it("a refresh token is honoured at most once, and the replays end the session, any winner's new tokens included", async () => {
    const session = await main.signIn();
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(session.tokens.refresh_token)));
    const winners = answers.filter((answer) => answer.status === 200);
    // The first rotation wins; whether its answer still goes out depends on whether a replay had
    // already ended the session by then (then its new tokens are revoked before it answers, and it
    // is refused too). Either way no second rotation is honoured and the session is over.
    expect(winners.length, `statuses: ${answers.map((answer) => answer.status).join(" ")}`).toBeLessThanOrEqual(1);
    expect(answers.filter((answer) => answer.status !== 200)).toEqual(Array(20 - winners.length).fill({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } }));
    expect(await adminCheck(session.tokens.access_token)).toEqual(BAD_TOKEN);
    for (const winner of winners) {
      const won = AuthTokensSchema.parse(winner.body);
      expect(await adminCheck(won.access_token)).toEqual(BAD_TOKEN);
      expect(await refresh(won.refresh_token)).toEqual({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } });
    }
  });

  it("a magic-link token signs in once", async () => {
    const email = `single-use-${randomUUID()}@example.com`;
    expect((await postJson(`${main.url}/api/auth/magic-link/request`, { email })).status).toBe(200);
    const { token } = magicLinkToken((await main.smtp.nextTo(email)).text);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postJson(`${main.url}/api/auth/magic-link/verify`, { token })));
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners, `statuses: ${answers.map((answer) => answer.status).join(" ")}`).toHaveLength(1);
    expect(winners[0]!.body).toMatchObject({ user: { email } });
    expect(answers.filter((answer) => answer.status !== 200)).toEqual(Array(19).fill({ status: 400, body: { detail: AUTH_MESSAGES.invalidMagicLink } }));
  });
});

describe("rate limits (each on a stack of its own, so they disturb nothing else)", () => {
  /**
   * RateLimit and RateLimit-Policy (draft 8) of a refused request: the policy of `limit` per
   * `seconds` has nothing left. A route behind several limits lists each (comma-separated, by name).
   */
  function expectExhausted(answer: ApiAnswer, limit: number, seconds: number) {
    const entries = (header: string) => (answer.headers.get(header) ?? "").split(", ");
    const policy = entries("ratelimit-policy").find((entry) => new RegExp(`^"[^"]+"; q=${limit}; w=${seconds}; pk=:[A-Za-z0-9+/=]+:$`).test(entry));
    expect(policy, `RateLimit-Policy: ${answer.headers.get("ratelimit-policy")}`).toBeDefined();
    const name = policy!.split(";")[0]!;
    expect(entries("ratelimit").filter((entry) => entry.startsWith(`${name};`))).toEqual([expect.stringMatching(/; r=0; t=\d+$/)]);
    const retryAfter = Number(answer.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= seconds, `Retry-After ${retryAfter}`).toBe(true);
  }

  describe("the public decision endpoint, per IP", () => {
    const stack = useStackWithMail(emulator, { RATE_LIMIT_PER_MINUTE: "3", TRUST_PROXY: "1" });
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const decide = (ip: string, question: string) => send(stack.url, { method: "post", path: PUBLIC_DECISION, body: { question, categories: ["Yes", "No"] }, headers: from(ip) });

    it("answers the 4th request in a minute from one address 429 (the suggestions share the limit); another address goes on", async () => {
      const allowed = await Promise.all([1, 2, 3].map((n) => decide("203.0.113.7", `Allowed ${n}?`)));
      expect(allowed.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(allowed.map((answer) => /; r=(\d+);/.exec(answer.headers.get("ratelimit") ?? "")?.[1]).sort()).toEqual(["0", "1", "2"]);

      const refused = await decide("203.0.113.7", "Refused by the limit?");
      expect(answerOf(refused)).toEqual({ status: 429, body: { detail: "Too many requests. Please wait a minute and try again." } });
      expectExhausted(refused, 3, 60);
      const suggestion = await send(stack.url, { method: "post", path: "/api/smart-suggestion-public", body: { question: "Refused too?", images: [], existing_choices: [] }, headers: from("203.0.113.7") });
      expect(suggestion.status).toBe(429);

      expect((await decide("203.0.113.8", "Another address?")).status).toBe(200);
      // That decision is complete: a refused one, had it been queued, would have reached the models by now.
      const asked = emulator.calls().map((call) => call.prompt_text);
      expect(asked.filter((prompt) => prompt.includes("Another address?"))).toHaveLength(3);
      expect(asked.filter((prompt) => prompt.includes("Refused"))).toEqual([]);
    });
  });

  describe("magic-link requests, per email address and IP", () => {
    const stack = useStackWithMail(emulator, { MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: "2", TRUST_PROXY: "1" });
    const request = (email: string, ip: string) => send(stack.url, { method: "post", path: "/api/auth/magic-link/request", body: { email }, headers: { "x-forwarded-for": ip } });

    it("answers the 3rd link for one address from one IP in an hour 429 and sends no mail for it; the address from another IP, and another address, go on", async () => {
      const email = `limited-${randomUUID()}@example.com`;
      expect((await request(email, "203.0.113.20")).status).toBe(200);
      expect((await request(email, "203.0.113.20")).status).toBe(200);
      const refused = await request(email, "203.0.113.20");
      expect(answerOf(refused)).toEqual({ status: 429, body: { detail: "Too many sign-in links were requested for this email address. Please wait an hour and try again." } });
      expectExhausted(refused, 2, 3600);
      // Each accepted request answered after its mail was delivered.
      expect(stack.smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(2);
      // Someone else asking for this address cannot use up its owner's links (see security-sign-in.test.ts).
      expect((await request(email, "203.0.113.21")).status).toBe(200);
      expect((await request(`other-${randomUUID()}@example.com`, "203.0.113.20")).status).toBe(200);
    });
  });

  describe("the forms (waitlist and job applications), per IP", () => {
    const stack = useStackWithMail(emulator, { FORMS_RATE_LIMIT_PER_HOUR: "2" });
    const join = (email: string) => send(stack.url, { method: "post", path: "/api/email-request", body: { email } });

    it("answers the 3rd submission in an hour 429 and stores nothing for it; job applications share the limit", async () => {
      expect((await join(`first-${randomUUID()}@example.com`)).status).toBe(200);
      expect((await join(`second-${randomUUID()}@example.com`)).status).toBe(200);
      const third = `third-${randomUUID()}@example.com`;
      const refused = await join(third);
      expect(answerOf(refused)).toEqual({ status: 429, body: { detail: "Too many requests. Please wait an hour and try again." } });
      expectExhausted(refused, 2, 3600);
      expect(await stack.store.waitlist.find(third)).toBeNull();

      const form = new FormData();
      for (const [field, value] of Object.entries({ name: "Ada Lovelace", email: third, phone: "+16505550100", linkedin: "https://www.linkedin.com/in/ada", accomplishment: "Notes", position: "Engineer", department: "Engineering" })) {
        form.append(field, value);
      }
      const application = await fetch(`${stack.url}/api/job-application`, { method: "POST", body: form });
      expect({ status: application.status, body: await application.json() }).toEqual({ status: 429, body: { detail: "Too many requests. Please wait an hour and try again." } });
    });
  });
});
