import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  HISTORY_MESSAGES,
  IMAGE_ASSET_MESSAGES,
  ImageAssetListResponseSchema,
  LIMITS,
  MESSAGES,
  type AuthResponse,
  type ImageAsset,
  type StoredDecision,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi, storedDecision, type ApiAnswer } from "@sd/testing/history";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const ASSETS = "/api/image-assets";
const DECIDE = "/api/ensembled-llm-categorical-decision";
const BODY_LIMIT_MB = 20;

const emulator = useEmulator();
let smtp: SmtpCapture;
let stack: InProcessStack;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, BODY_LIMIT_MB: String(BODY_LIMIT_MB) }));
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

let n = 0;
const newUser = () => signInByMail(stack.url, smtp, `assets${++n}-${Date.now()}@example.com`);
const token = (user: AuthResponse | null) => user?.tokens.access_token ?? null;
const api = (method: string, path: string, user: AuthResponse | null | string, body?: unknown): Promise<ApiAnswer> =>
  callApi(stack.url, path, typeof user === "string" ? user : token(user), { method, body });

/** A PNG data URL of `bytes` bytes, each `fill` (so two images are told apart by their data). */
const png = (bytes: number, fill = 1) => `data:image/png;base64,${Buffer.alloc(bytes, fill).toString("base64")}`;
const jpeg = (bytes: number, fill = 2) => `data:image/jpeg;base64,${Buffer.alloc(bytes, fill).toString("base64")}`;

/** A failed image-asset call. */
const failure = (status: number, message: string) => ({ status, body: { success: false, message, imageAssets: [], total: 0 } });
const emptyList = { status: 200, body: { success: true, message: IMAGE_ASSET_MESSAGES.listed(0), imageAssets: [], total: 0 } };
const answered = (a: ApiAnswer) => ({ status: a.status, body: a.body });
const assetsOf = (a: ApiAnswer) => a.body.imageAssets as ImageAsset[];

async function seedDecision(user: AuthResponse | null, overrides: Partial<StoredDecision> = {}): Promise<StoredDecision> {
  const decision = storedDecision({ user_id: user?.user.id ?? null, user_email: user?.user.email ?? null, ...overrides });
  expect(await stack.store.decisions.insertOnce(decision)).toBe(true);
  return decision;
}

async function storeAsset(user: AuthResponse, decisionId: string, label: string, image_data: string): Promise<ImageAsset> {
  const created = await api("POST", ASSETS, user, { decisionHistory_id: decisionId, label, image_data });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return assetsOf(created)[0]!;
}

/** What a refused request must leave alone: every asset, and the decision's list of them. */
async function snapshot(decisionId: string) {
  return { assets: await stack.store.imageAssets.count(), images: (await stack.store.decisions.findById(decisionId))?.images };
}

describe("POST /api/image-assets", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
  });

  it("stores an image of the caller's decision, with its type and size from the data, and lists it on the decision", async () => {
    const decision = await seedDecision(alice);
    const image = png(300);
    const created = await api("POST", ASSETS, alice, { decisionHistory_id: decision.id, label: "image1", image_data: image });
    expect(created.status).toBe(201);
    expect(ImageAssetListResponseSchema.parse(created.body)).toEqual(created.body);
    const [asset] = assetsOf(created) as [ImageAsset];
    expect(created.body).toEqual({
      success: true,
      message: IMAGE_ASSET_MESSAGES.created,
      imageAssets: [
        {
          id: expect.any(String),
          user_id: alice.user.id,
          decisionHistory_id: decision.id,
          label: "image1",
          image_data: image,
          image_type: "image/png",
          file_size: 300,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        },
      ],
      total: 1,
    });

    // The caller's own id, and a type and size that agree with the data, are accepted too.
    const second = await api("POST", ASSETS, alice, {
      user_id: alice.user.id,
      decisionHistory_id: decision.id,
      label: "image2",
      image_data: jpeg(1000),
      image_type: "image/jpeg",
      file_size: 1000,
    });
    expect(second.status).toBe(201);
    const secondId = assetsOf(second)[0]!.id;

    const detail = await api("GET", `/api/decision-history/${decision.id}`, alice);
    expect((detail.body.decision as { images: string[] }).images).toEqual([asset.id, secondId]);
    expect(answered(await api("GET", `${ASSETS}/${asset.id}`, alice))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.found, imageAssets: [asset], total: 1 },
    });
    expect(assetsOf(await api("GET", `${ASSETS}/decision/${decision.id}`, alice)).map((a) => a.label)).toEqual(["image1", "image2"]);
  });

  describe("refusals, which write nothing", () => {
    let decision: StoredDecision;
    let bobsDecision: StoredDecision;
    let anonymousDecision: StoredDecision;
    let first: ImageAsset;
    beforeAll(async () => {
      decision = await seedDecision(alice, { question: "Refusals?" });
      bobsDecision = await seedDecision(bob);
      anonymousDecision = await seedDecision(null);
      first = await storeAsset(alice, decision.id, "image1", png(100, 5));
    });

    const valid = () => ({ decisionHistory_id: decision.id, label: "image2", image_data: png(200) });
    const cases: [string, () => { user: AuthResponse | null | string; body: unknown }, number, string][] = [
      ["no bearer token", () => ({ user: null, body: valid() }), 401, IMAGE_ASSET_MESSAGES.signInRequired],
      ["a bad bearer token", () => ({ user: "not-a-token", body: valid() }), 401, AUTH_MESSAGES.invalidCredentials],
      ["a user_id naming someone else", () => ({ user: alice, body: { ...valid(), user_id: bob.user.id } }), 403, IMAGE_ASSET_MESSAGES.otherUser],
      ["another user's decision", () => ({ user: alice, body: { ...valid(), decisionHistory_id: bobsDecision.id } }), 404, IMAGE_ASSET_MESSAGES.decisionNotFound],
      ["an anonymous decision", () => ({ user: alice, body: { ...valid(), decisionHistory_id: anonymousDecision.id } }), 404, IMAGE_ASSET_MESSAGES.decisionNotFound],
      ["an unknown decision", () => ({ user: alice, body: { ...valid(), decisionHistory_id: randomUUID() } }), 404, IMAGE_ASSET_MESSAGES.decisionNotFound],
      ["a label the decision already has", () => ({ user: alice, body: { ...valid(), label: "image1" } }), 409, IMAGE_ASSET_MESSAGES.labelTaken],
      ["an image of 10 MB", () => ({ user: alice, body: { ...valid(), image_data: png(LIMITS.maxImageBytes) } }), 413, MESSAGES.imagesTooLarge],
      ["data that is not a data URL", () => ({ user: alice, body: { ...valid(), image_data: "https://example.com/cat.png" } }), 400, MESSAGES.invalidImageType.detail],
      ["a file that is not an image", () => ({ user: alice, body: { ...valid(), image_data: "data:application/pdf;base64,JVBERi0=" } }), 400, MESSAGES.invalidImageType.detail],
      ["no image data", () => ({ user: alice, body: { ...valid(), image_data: undefined } }), 400, MESSAGES.invalidImageType.detail],
      ["a label that is not imageN", () => ({ user: alice, body: { ...valid(), label: "photo" } }), 400, "label must be image1, image2, ..."],
      ["label image0", () => ({ user: alice, body: { ...valid(), label: "image0" } }), 400, "label must be image1, image2, ..."],
      ["no decision id", () => ({ user: alice, body: { ...valid(), decisionHistory_id: undefined } }), 400, "decisionHistory_id is required."],
      ["an operator object as the decision id", () => ({ user: alice, body: { ...valid(), decisionHistory_id: { $ne: null } } }), 400, "decisionHistory_id is required."],
      ["an image_type that disagrees with the data", () => ({ user: alice, body: { ...valid(), image_type: "image/gif" } }), 400, "image_type must be image/png, the type of image_data."],
      ["a file_size that disagrees with the data", () => ({ user: alice, body: { ...valid(), file_size: 1 } }), 400, "file_size must be 200, the size of image_data in bytes."],
      ["a JSON array for a body", () => ({ user: alice, body: [valid()] }), 400, "Send a JSON object with Content-Type: application/json."],
    ];

    it.each(cases)("refuses %s", async (_name, request, status, message) => {
      const before = await snapshot(decision.id);
      const { user, body } = request();
      expect(answered(await api("POST", ASSETS, user, body))).toEqual(failure(status, message));
      expect(await snapshot(decision.id)).toEqual(before);
      expect(before.images).toEqual([first.id]);
    });

    it("keeps the stored image when its label is sent again", async () => {
      await api("POST", ASSETS, alice, { ...valid(), label: "image1" });
      expect(assetsOf(await api("GET", `${ASSETS}/${first.id}`, alice))[0]?.image_data).toBe(png(100, 5));
    });

    it("refuses a body that is not JSON, or over the size limit, in the image-asset shape", async () => {
      const before = await snapshot(decision.id);
      const malformed = await callApi(stack.url, ASSETS, token(alice), { method: "POST", rawBody: '{"label": "image2", ' });
      expect(answered(malformed)).toEqual(failure(400, "The request body is not valid JSON."));
      const huge = await api("POST", ASSETS, alice, { ...valid(), image_data: png((BODY_LIMIT_MB + 1) * 1024 * 1024) });
      expect(answered(huge)).toEqual(failure(413, MESSAGES.imagesTooLarge));
      expect(await snapshot(decision.id)).toEqual(before);
    });
  });
});

describe("GET /api/image-assets/decision/:id", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let decision: StoredDecision;
  let assets: ImageAsset[];
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    decision = await seedDecision(alice);
    // Stored out of order: the list is by label number (image2 before image10).
    const ten = await storeAsset(alice, decision.id, "image10", png(10, 10));
    const two = await storeAsset(alice, decision.id, "image2", png(10, 2));
    const one = await storeAsset(alice, decision.id, "image1", png(10, 1));
    assets = [one, two, ten];
  });

  it("lists the owner's images of the decision by label", async () => {
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}`, alice))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.listed(3), imageAssets: assets, total: 3 },
    });
    expect(assetsOf(await api("GET", `${ASSETS}/decision/${decision.id}?user_id=${alice.user.id}`, alice))).toEqual(assets);
  });

  it("is an empty list without a bearer token, whatever user_id is sent", async () => {
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}`, null))).toEqual(emptyList);
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}?user_id=${alice.user.id}`, null))).toEqual(emptyList);
  });

  it("is an empty list for another user, and for an unknown decision", async () => {
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}`, bob))).toEqual(emptyList);
    expect(answered(await api("GET", `${ASSETS}/decision/${randomUUID()}`, alice))).toEqual(emptyList);
  });

  it("refuses a user_id naming someone else, and a bad token", async () => {
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}?user_id=${bob.user.id}`, alice))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}`, "not-a-token"))).toEqual(failure(401, AUTH_MESSAGES.invalidCredentials));
  });
});

describe("GET /api/image-assets/user/:userId", () => {
  let carol: AuthResponse;
  let bob: AuthResponse;
  let newestFirst: ImageAsset[];
  beforeAll(async () => {
    [carol, bob] = [await newUser(), await newUser()];
    // 55 images over three decisions, each a second apart, so "newest first" is exact.
    const decisions = [await seedDecision(carol), await seedDecision(carol), await seedDecision(carol)];
    const stored = [];
    for (let i = 0; i < 55; i++) {
      const decision = decisions[i % 3]!;
      stored.push(
        await stack.store.imageAssets.create({
          userId: carol.user.id,
          decisionId: decision.id,
          label: `image${Math.floor(i / 3) + 1}`,
          data: png(20, i),
          createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)),
        }),
      );
    }
    newestFirst = stored.reverse().map((a) => ({ ...a, created_at: a.created_at.toISOString() }));
    await seedDecision(bob);
  });

  it("lists the caller's images newest first, 50 by default", async () => {
    const answer = await api("GET", `${ASSETS}/user/${carol.user.id}`, carol);
    expect(answered(answer)).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.listed(LIMITS.imageAssetListLimit), imageAssets: newestFirst.slice(0, 50), total: 50 },
    });
  });

  it("honours limit, up to the maximum", async () => {
    expect(assetsOf(await api("GET", `${ASSETS}/user/${carol.user.id}?limit=2`, carol))).toEqual(newestFirst.slice(0, 2));
    expect(assetsOf(await api("GET", `${ASSETS}/user/${carol.user.id}?limit=1&user_id=${carol.user.id}`, carol))).toEqual(newestFirst.slice(0, 1));
    expect((await api("GET", `${ASSETS}/user/${carol.user.id}?limit=${LIMITS.maxImageAssetListLimit}`, carol)).body.total).toBe(55);
  });

  it("is an empty list without a bearer token, and for a user without images", async () => {
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}`, null))).toEqual(emptyList);
    expect(answered(await api("GET", `${ASSETS}/user/${bob.user.id}`, bob))).toEqual(emptyList);
  });

  it("refuses another user's list, even through user_id", async () => {
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}`, bob))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
    expect(answered(await api("GET", `${ASSETS}/user/${bob.user.id}?user_id=${carol.user.id}`, bob))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
  });

  const limitMessage = `limit must be a whole number from 1 to ${LIMITS.maxImageAssetListLimit}.`;
  it.each(["0", "-1", "201", "ten", "1.5", "", "99999999999"])("refuses limit=%j with a 400", async (limit) => {
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}?limit=${limit}`, carol))).toEqual(failure(400, limitMessage));
  });

  it("refuses a repeated limit, an operator parameter and a bad token", async () => {
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}?limit=1&limit=2`, carol))).toEqual(failure(400, limitMessage));
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}?user_id[$ne]=x`, carol))).toEqual(
      failure(400, 'The query parameter "user_id[$ne]" is not allowed: send plain names, each with one value.'),
    );
    expect(answered(await api("GET", `${ASSETS}/user/${carol.user.id}`, "not-a-token"))).toEqual(failure(401, AUTH_MESSAGES.invalidCredentials));
  });
});

describe("GET /api/image-assets/:id", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let asset: ImageAsset;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    asset = await storeAsset(alice, (await seedDecision(alice)).id, "image1", png(64, 3));
  });

  it("answers the owner's image", async () => {
    expect(answered(await api("GET", `${ASSETS}/${asset.id}?user_id=${alice.user.id}`, alice))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.found, imageAssets: [asset], total: 1 },
    });
  });

  it("answers another user's image exactly like an unknown one, and so without a bearer token", async () => {
    const others = await api("GET", `${ASSETS}/${asset.id}`, bob);
    expect(answered(others)).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));
    const unknown = await api("GET", `${ASSETS}/${randomUUID()}`, bob);
    expect(unknown.text).toBe(others.text);
    expect(answered(await api("GET", `${ASSETS}/${asset.id}`, null))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));
    expect(answered(await api("GET", `${ASSETS}/${asset.id}?user_id=${alice.user.id}`, null))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));
  });

  it("refuses a user_id naming someone else, and a bad token", async () => {
    expect(answered(await api("GET", `${ASSETS}/${asset.id}?user_id=${bob.user.id}`, alice))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
    expect(answered(await api("GET", `${ASSETS}/${asset.id}`, "not-a-token"))).toEqual(failure(401, AUTH_MESSAGES.invalidCredentials));
  });
});

describe("DELETE /api/image-assets/:id", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let decision: StoredDecision;
  let one: ImageAsset;
  let two: ImageAsset;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    decision = await seedDecision(alice);
    one = await storeAsset(alice, decision.id, "image1", png(30, 1));
    two = await storeAsset(alice, decision.id, "image2", png(30, 2));
  });

  it("refuses a caller without a token, another user and another user_id, deleting nothing", async () => {
    const before = await snapshot(decision.id);
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, null))).toEqual(failure(401, IMAGE_ASSET_MESSAGES.signInRequired));
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, null, { user_id: alice.user.id }))).toEqual(failure(401, IMAGE_ASSET_MESSAGES.signInRequired));
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, "not-a-token"))).toEqual(failure(401, AUTH_MESSAGES.invalidCredentials));
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, bob))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, alice, { user_id: bob.user.id }))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
    expect(await snapshot(decision.id)).toEqual(before);
    expect(before.images).toEqual([one.id, two.id]);
  });

  it("deletes the owner's image and takes it off the decision", async () => {
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, alice))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.deleted, imageAssets: [one], total: 1 },
    });
    expect(answered(await api("GET", `${ASSETS}/${one.id}`, alice))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));
    expect(assetsOf(await api("GET", `${ASSETS}/decision/${decision.id}`, alice))).toEqual([two]);
    expect((await stack.store.decisions.findById(decision.id))?.images).toEqual([two.id]);
    expect(answered(await api("DELETE", `${ASSETS}/${one.id}`, alice))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.notFound));

    // The caller's own user_id in the body is accepted.
    expect((await api("DELETE", `${ASSETS}/${two.id}`, alice, { user_id: alice.user.id })).status).toBe(200);
    expect((await stack.store.decisions.findById(decision.id))?.images).toEqual([]);
  });
});

describe("DELETE /api/image-assets/decision/:id", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let decision: StoredDecision;
  let kept: ImageAsset;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    decision = await seedDecision(alice);
    await storeAsset(alice, decision.id, "image1", png(30, 1));
    await storeAsset(alice, decision.id, "image2", png(30, 2));
    kept = await storeAsset(alice, (await seedDecision(alice)).id, "image1", png(30, 3));
  });

  it("refuses a caller without a token, another user and another user_id, deleting nothing", async () => {
    const before = await snapshot(decision.id);
    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, null))).toEqual(failure(401, IMAGE_ASSET_MESSAGES.signInRequired));
    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, "not-a-token"))).toEqual(failure(401, AUTH_MESSAGES.invalidCredentials));
    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, bob))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.decisionNotFound));
    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, alice, { user_id: bob.user.id }))).toEqual(failure(403, IMAGE_ASSET_MESSAGES.otherUser));
    expect(answered(await api("DELETE", `${ASSETS}/decision/${randomUUID()}`, alice))).toEqual(failure(404, IMAGE_ASSET_MESSAGES.decisionNotFound));
    expect(await snapshot(decision.id)).toEqual(before);
    expect(before.images).toHaveLength(2);
  });

  it("deletes every image of the owner's decision, says how many, and keeps the decision and other images", async () => {
    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, alice, { user_id: alice.user.id }))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.deletedForDecision(2), imageAssets: [], total: 2 },
    });
    expect(answered(await api("GET", `${ASSETS}/decision/${decision.id}`, alice))).toEqual(emptyList);
    const detail = await api("GET", `/api/decision-history/${decision.id}`, alice);
    expect(detail.status).toBe(200);
    expect((detail.body.decision as { images: string[] }).images).toEqual([]);
    expect(answered(await api("GET", `${ASSETS}/${kept.id}`, alice)).status).toBe(200);

    expect(answered(await api("DELETE", `${ASSETS}/decision/${decision.id}`, alice))).toEqual({
      status: 200,
      body: { success: true, message: IMAGE_ASSET_MESSAGES.deletedForDecision(0), imageAssets: [], total: 0 },
    });
  });
});

describe("a signed-in user's decision with images", () => {
  it("keeps the images once, as the user's assets, named on the decision by label", async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const images = [png(500, 7), jpeg(700, 8)];
    const decided = await api("POST", DECIDE, alice, { question: "Which logo?", categories: ["Round", "Square"], images });
    expect(decided.status).toBe(200);
    const decisionId = decided.body.decision_id as string;

    const listed = await api("GET", `${ASSETS}/decision/${decisionId}`, alice);
    expect(assetsOf(listed).map(({ label, image_type, file_size, image_data }) => ({ label, image_type, file_size, image_data }))).toEqual([
      { label: "image1", image_type: "image/png", file_size: 500, image_data: images[0] },
      { label: "image2", image_type: "image/jpeg", file_size: 700, image_data: images[1] },
    ]);
    const detail = await api("GET", `/api/decision-history/${decisionId}`, alice);
    expect((detail.body.decision as { images: string[] }).images).toEqual(assetsOf(listed).map((a) => a.id));
    expect(detail.text).not.toContain(images[0]!.slice(30, 90));
    expect(answered(await api("GET", `${ASSETS}/decision/${decisionId}`, bob))).toEqual(emptyList);
  });
});

describe("user B and user A's decisions and images", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let decision: StoredDecision;
  let asset: ImageAsset;
  const secretQuestion = "Alice's secret question?";
  const secretImage = png(48, 42);

  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    decision = await seedDecision(alice, { question: secretQuestion });
    asset = await storeAsset(alice, decision.id, "image1", secretImage);
    await storeAsset(alice, decision.id, "image2", png(48, 43));
  });

  type Row = [method: string, path: () => string, body: () => unknown, expected: () => { status: number; body: unknown }];
  const rows: Row[] = [
    ["GET", () => "/api/decision-history", () => undefined, () => ({ status: 200, body: expect.objectContaining({ decisions: [], total: 0 }) })],
    ["GET", () => `/api/decision-history?question=${encodeURIComponent(secretQuestion)}`, () => undefined, () => ({ status: 200, body: expect.objectContaining({ decisions: [], total: 0 }) })],
    ["GET", () => `/api/decision-history/${decision.id}`, () => undefined, () => ({ status: 404, body: { detail: HISTORY_MESSAGES.notFound } })],
    ["POST", () => ASSETS, () => ({ decisionHistory_id: decision.id, label: "image3", image_data: png(10) }), () => failure(404, IMAGE_ASSET_MESSAGES.decisionNotFound)],
    ["POST", () => ASSETS, () => ({ decisionHistory_id: decision.id, label: "image1", image_data: png(10) }), () => failure(404, IMAGE_ASSET_MESSAGES.decisionNotFound)],
    ["POST", () => ASSETS, () => ({ user_id: alice.user.id, decisionHistory_id: decision.id, label: "image3", image_data: png(10) }), () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["GET", () => `${ASSETS}/decision/${decision.id}`, () => undefined, () => emptyList],
    ["GET", () => `${ASSETS}/decision/${decision.id}?user_id=${alice.user.id}`, () => undefined, () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["GET", () => `${ASSETS}/user/${alice.user.id}`, () => undefined, () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["GET", () => `${ASSETS}/user/${bob.user.id}?user_id=${alice.user.id}`, () => undefined, () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["GET", () => `${ASSETS}/user/${bob.user.id}`, () => undefined, () => emptyList],
    ["GET", () => `${ASSETS}/${asset.id}`, () => undefined, () => failure(404, IMAGE_ASSET_MESSAGES.notFound)],
    ["GET", () => `${ASSETS}/${asset.id}?user_id=${alice.user.id}`, () => undefined, () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["DELETE", () => `${ASSETS}/${asset.id}`, () => undefined, () => failure(404, IMAGE_ASSET_MESSAGES.notFound)],
    ["DELETE", () => `${ASSETS}/${asset.id}`, () => ({ user_id: alice.user.id }), () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
    ["DELETE", () => `${ASSETS}/decision/${decision.id}`, () => undefined, () => failure(404, IMAGE_ASSET_MESSAGES.decisionNotFound)],
    ["DELETE", () => `${ASSETS}/decision/${decision.id}`, () => ({ user_id: alice.user.id }), () => failure(403, IMAGE_ASSET_MESSAGES.otherUser)],
  ];

  it.each(rows.map((row, i) => [`${row[0]} #${i + 1}`, row] as const))("B gets nothing of A's from %s and changes nothing", async (_name, [method, path, body, expected]) => {
    const before = { decision: await stack.store.decisions.findById(decision.id), assets: await stack.store.imageAssets.count() };
    const answer = await api(method, path(), bob, body());
    expect(answered(answer), `${method} ${path()}`).toEqual(expected());
    expect(answer.text).not.toContain(secretQuestion);
    expect(answer.text).not.toContain(asset.id);
    expect(answer.text).not.toContain(secretImage.slice(22));
    expect({ decision: await stack.store.decisions.findById(decision.id), assets: await stack.store.imageAssets.count() }).toEqual(before);
  });

  it("leaves A with everything A had", async () => {
    expect((await api("GET", `/api/decision-history/${decision.id}`, alice)).body).toMatchObject({ decision: { question: secretQuestion, images: [asset.id, expect.any(String)] } });
    expect(assetsOf(await api("GET", `${ASSETS}/decision/${decision.id}`, alice)).map((a) => a.image_data)).toEqual([secretImage, png(48, 43)]);
  });
});

describe("unknown image-asset paths", () => {
  it("answer 404 in the image-asset shape", async () => {
    expect(answered(await api("PATCH", `${ASSETS}/${randomUUID()}`, null, {}))).toEqual(failure(404, "Not found"));
    expect(answered(await api("GET", `${ASSETS}/decision/a/b`, null))).toEqual(failure(404, "Not found"));
  });
});
