import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  DecisionHistoryItemSchema,
  EXPORT_CSV_COLUMNS,
  HISTORY_MESSAGES,
  SHARE_MESSAGES,
  ShareCreatedSchema,
  SharedDecisionResponseSchema,
  SharedDecisionSchema,
  type AuthResponse,
  type StoredDecision,
} from "@sd/contracts";
import { EXAMPLE_IMAGE } from "@sd/contracts/endpoints";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi, storedDecision } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const emulator = useEmulator();
const stack = useStackWithMail(emulator);
const newUser = () => stack.signIn();
const token = (user: AuthResponse) => user.tokens.access_token;

async function seed(user: AuthResponse, ...decisions: Partial<StoredDecision>[]): Promise<StoredDecision[]> {
  const stored = decisions.map((d) => storedDecision({ user_id: user.user.id, user_email: user.user.email, api_key_id: "key-of-the-owner", ...d }));
  for (const decision of stored) expect(await stack.store.decisions.insertOnce(decision)).toBe(true);
  return stored;
}

const sharePath = (decisionId: string) => `/api/decisions/${decisionId}/share`;
const share = (user: AuthResponse | null, decisionId: string, body: unknown = {}) => callApi(stack.url, sharePath(decisionId), user && token(user), { method: "POST", body });
const shareStatus = (user: AuthResponse | null, decisionId: string) => callApi(stack.url, sharePath(decisionId), user && token(user));
const revoke = (user: AuthResponse | null, decisionId: string) => callApi(stack.url, sharePath(decisionId), user && token(user), { method: "DELETE" });
const open = (shareToken: string) => callApi(stack.url, `/api/shared/${encodeURIComponent(shareToken)}`, null);

describe("share links", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let decision: StoredDecision;
  let other: StoredDecision;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    [decision, other] = (await seed(alice, { question: "Should we ship on Friday?" }, { question: "A decision alice never shares" })) as [StoredDecision, StoredDecision];
    const asset = await callApi(stack.url, "/api/image-assets", token(alice), { body: { decisionHistory_id: decision.id, label: "image1", image_data: EXAMPLE_IMAGE } });
    expect(asset.status, asset.text).toBe(201);
  });

  it("is off by default", async () => {
    const answer = await shareStatus(alice, decision.id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ shared: false, include_images: null, created_at: null });
  });

  it("needs the owner: no token is a 401, another user's decision and an unknown one a 404, and nothing changes", async () => {
    for (const call of [shareStatus, share, revoke]) {
      expect((await call(null, decision.id)).status).toBe(401);
      const theirs = await call(bob, decision.id);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ detail: HISTORY_MESSAGES.notFound });
      expect((await call(alice, "no-such-decision")).status).toBe(404);
    }
    expect(await stack.store.decisionShares.findForDecision(decision.id, alice.user.id)).toBeNull();
  });

  it("gives the owner a 256-bit token, stored only as its SHA-256, that opens the decision for anyone, never indexed nor cached", async () => {
    const created = await share(alice, decision.id);
    expect(created.status, created.text).toBe(201);
    const link = ShareCreatedSchema.parse(created.body);
    expect(link).toMatchObject({ shared: true, include_images: false, path: `/shared/${link.token}` });
    expect(Buffer.from(link.token, "base64url").length).toBe(32);
    const stored = await stack.store.decisionShares.findForDecision(decision.id, alice.user.id);
    expect(stored?.tokenHash).toBe(createHash("sha256").update(link.token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(link.token);
    // The owner's control knows it is shared, but the link is not shown again.
    expect((await shareStatus(alice, decision.id)).body).toEqual({ shared: true, include_images: false, created_at: link.created_at });

    const opened = await open(link.token);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("x-robots-tag")).toBe("noindex");
    expect(opened.headers.get("cache-control")).toBe("no-store");
    const shared = SharedDecisionResponseSchema.parse(opened.body).decision;
    expect(shared.question).toBe("Should we ship on Friday?");
    expect(shared.final_decision).toBe(decision.final_decision);
    expect(shared.vote_counts).toEqual(decision.vote_counts);
    // Images stay private unless chosen: not even their count shows.
    expect(shared.images).toEqual([]);
    expect(opened.text).not.toContain("image1");
  });

  it("shows nothing else of the owner: no email, user id, IP, key, decision id, nor any other decision", async () => {
    const link = ShareCreatedSchema.parse((await share(alice, decision.id)).body);
    const opened = await open(link.token);
    expect(Object.keys(opened.body.decision as object).sort()).toEqual(Object.keys(SharedDecisionSchema.shape).sort());
    for (const secret of [alice.user.email, alice.user.id, decision.user_ip!, "key-of-the-owner", decision.id, other.id, other.question]) {
      expect(opened.text).not.toContain(secret);
    }
  });

  it("includes the images only when the owner chose them", async () => {
    const link = ShareCreatedSchema.parse((await share(alice, decision.id, { include_images: true })).body);
    expect(link.include_images).toBe(true);
    const shared = SharedDecisionResponseSchema.parse((await open(link.token)).body).decision;
    expect(shared.images).toEqual([{ label: "image1", image_type: "image/png", image_data: EXAMPLE_IMAGE }]);
  });

  it("is a 404 at once when revoked or replaced, and another user cannot revoke it", async () => {
    const first = ShareCreatedSchema.parse((await share(alice, decision.id)).body);
    const second = ShareCreatedSchema.parse((await share(alice, decision.id)).body);
    expect(second.token).not.toBe(first.token);
    const replaced = await open(first.token);
    expect(replaced.status).toBe(404);
    expect(replaced.body).toEqual({ detail: SHARE_MESSAGES.notFound });
    expect(replaced.headers.get("x-robots-tag")).toBe("noindex");

    expect((await revoke(bob, decision.id)).status).toBe(404);
    expect((await open(second.token)).status).toBe(200);
    const revoked = await revoke(alice, decision.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ shared: false, include_images: null, created_at: null });
    expect((await open(second.token)).status).toBe(404);
    expect((await shareStatus(alice, decision.id)).body).toMatchObject({ shared: false });
    // Revoking again changes nothing.
    expect((await revoke(alice, decision.id)).status).toBe(200);
  });

  it("answers 404 to any token it did not issue, without telling why", async () => {
    for (const guess of ["x", "A".repeat(43), "%24ne", "a".repeat(500)]) {
      const answer = await open(guess);
      expect(answer.status, guess).toBe(404);
      expect(answer.body).toEqual({ detail: SHARE_MESSAGES.notFound });
    }
  });

  it("refuses a body that is not the share options", async () => {
    for (const body of [{ include_images: "yes" }, { include_images: true, user_id: bob.user.id }]) {
      expect((await share(alice, decision.id, body)).status).toBe(400);
    }
  });
});

/** Parses CSV with Python's csv module (a real RFC 4180 reader, not ours), as a list of rows. */
function parseCsv(text: string): string[][] {
  const script = "import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read(), newline='')))))";
  const run = spawnSync("python3", ["-c", script], { input: text, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout) as string[][];
}

describe("history export", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  const tricky = [
    'He said "ship it", then left',
    "Line one\nline two, with a comma",
    "=HYPERLINK(\"http://evil.example\",\"click\")",
    "+1 or -1?",
    "-5 degrees: too cold?",
    "@SUM(A1:A2)",
    "Ünïcödé and emoji 🚀?",
  ];
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    await seed(
      alice,
      ...tricky.map((question, i) => ({ question, timestamp: new Date(Date.UTC(2025, 0, 10 + i, 9)), categories: ["Yes", "No, never"], final_decision: i === 1 ? null : "Yes" })),
      { question: "Outside the dates", timestamp: new Date("2024-06-01T00:00:00Z") },
    );
    await seed(bob, { question: "Bob's own question", timestamp: new Date(Date.UTC(2025, 0, 12, 9)) });
  });

  const exportOf = (format: "csv" | "json", query: string, user: AuthResponse | null = alice) => callApi(stack.url, `/api/exports/decisions.${format}${query}`, user && token(user));
  const listed = async (query: string) => {
    const answer = await callApi(stack.url, `/api/decision-history?limit=200${query}`, token(alice));
    return (answer.body.decisions as unknown[]).map((d) => DecisionHistoryItemSchema.parse(d));
  };

  it("streams the filtered list as CSV that a CSV reader parses back, with formulas defused", async () => {
    const filters = "&dateFrom=2025-01-01&dateTo=2025-12-31";
    const answer = await exportOf("csv", `?${filters.slice(1)}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="decisions-\d{4}-\d{2}-\d{2}\.csv"$/);
    // Streamed: no length known in advance.
    expect(answer.headers.get("content-length")).toBeNull();
    // (fetch's text() drops the UTF-8 byte order mark the file starts with.)
    const [header, ...rows] = parseCsv(answer.text);
    expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
    const expected = await listed(filters);
    expect(expected.length).toBe(tricky.length);
    const cell = (row: string[], column: (typeof EXPORT_CSV_COLUMNS)[number]) => row[EXPORT_CSV_COLUMNS.indexOf(column)];
    expect(rows.map((row) => cell(row, "id"))).toEqual(expected.map((d) => d.id));
    const defused = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);
    expect(rows.map((row) => cell(row, "question"))).toEqual(expected.map((d) => defused(d.question)));
    expect(rows.map((row) => cell(row, "final_decision"))).toEqual(expected.map((d) => d.final_decision ?? ""));
    expect(rows.map((row) => JSON.parse(cell(row, "categories")!) as unknown)).toEqual(expected.map((d) => d.categories));
    expect(rows.map((row) => JSON.parse(cell(row, "vote_counts")!) as unknown)).toEqual(expected.map((d) => d.vote_counts));
    expect(rows.map((row) => Number(cell(row, "total_votes")))).toEqual(expected.map((d) => d.total_votes));
  });

  it("exports JSON equal to the filtered list, item for item", async () => {
    for (const filters of ["", "&hasDecision=false", "&question=line", "&category=No%2C%20never&dateFrom=2025-01-12"]) {
      const answer = await exportOf("json", `?${filters.slice(1)}`);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="decisions-[\d-]+\.json"$/);
      expect(answer.body).toEqual(await listed(filters));
    }
    expect(((await exportOf("json", "")).body as unknown as unknown[]).length).toBe(tricky.length + 1);
  });

  it("exports only the caller's decisions, and refuses no token and bad filters", async () => {
    const bobs = (await exportOf("json", "", bob)).body as unknown as { question: string }[];
    expect(bobs.map((d) => d.question)).toEqual(["Bob's own question"]);
    const none = await exportOf("csv", "", null);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
    const bad = await exportOf("csv", "?dateFrom=2025-02-01&dateTo=2025-01-01");
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: "dateFrom must not be after dateTo." });
    expect((await exportOf("json", "?hasDecision=maybe")).status).toBe(400);
  });
});
