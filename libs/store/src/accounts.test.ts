import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeImage } from "./image-assets";
import { openStore, type Store } from "./store";
import { makeTempDir } from "./testing/temp-dir";

let dir: Awaited<ReturnType<typeof makeTempDir>>;
let store: Store;
beforeEach(async () => {
  dir = await makeTempDir();
  store = await openStore({ mongoUrl: null, dataDir: dir.path });
});
afterEach(async () => {
  await store.close();
  await dir.remove();
});

describe("users", () => {
  it("keeps one account per email across sign-in methods and a restart", async () => {
    const byMail = await store.users.signInWithEmail("Ada@Example.com");
    expect(byMail).toMatchObject({ email: "ada@example.com", name: null, is_verified: true, avatar_url: null, google_sub: null });
    const concurrent = await Promise.all([store.users.signInWithEmail("ada@example.com"), store.users.signInWithEmail("ADA@example.com")]);
    expect(concurrent.map((u) => u.id)).toEqual([byMail.id, byMail.id]);
    const byGoogle = await store.users.signInWithGoogle({ subject: "g-1", email: "ada@example.com", name: "Ada", avatar_url: "https://x.test/a.png" });
    expect(byGoogle).toMatchObject({ id: byMail.id, name: "Ada", avatar_url: "https://x.test/a.png", google_sub: "g-1" });
    await store.close();
    store = await openStore({ mongoUrl: null, dataDir: dir.path });
    expect(await store.users.count()).toBe(1);
    expect(await store.users.findByEmail("ada@EXAMPLE.com")).toMatchObject({ id: byMail.id, google_sub: "g-1" });
  });

  it("creates one account when two first sign-ins race", async () => {
    const [a, b] = await Promise.all([store.users.signInWithEmail("new@example.com"), store.users.signInWithEmail("new@example.com")]);
    expect(a.id).toBe(b.id);
    expect(await store.users.count()).toBe(1);
  });
});

describe("refresh tokens", () => {
  const hash = (c: string) => c.repeat(64);
  const token = (h: string, family = "fam-1") => ({
    hash: h,
    family_id: family,
    user_id: "u1",
    created_at: new Date(),
    expires_at: new Date(Date.now() + 60_000),
  });

  it("rotate once, and not when expired or revoked", async () => {
    await store.refreshTokens.insert(token(hash("a")));
    const results = await Promise.all([store.refreshTokens.rotate(hash("a")), store.refreshTokens.rotate(hash("a"))]);
    expect(results.sort()).toEqual([false, true]);
    await store.refreshTokens.insert({ ...token(hash("b")), expires_at: new Date(Date.now() - 1) });
    expect(await store.refreshTokens.rotate(hash("b"))).toBe(false);
    expect(await store.refreshTokens.rotate(hash("c"))).toBe(false);
  });

  it("revoke a whole family and only it", async () => {
    await store.refreshTokens.insert(token(hash("a")));
    await store.refreshTokens.insert(token(hash("b")));
    await store.refreshTokens.insert(token(hash("c"), "fam-2"));
    expect(await store.refreshTokens.isFamilyRevoked("fam-1")).toBe(false);
    expect(await store.refreshTokens.revokeFamily("fam-1")).toBe(2);
    expect(await store.refreshTokens.isFamilyRevoked("fam-1")).toBe(true);
    expect(await store.refreshTokens.rotate(hash("b"))).toBe(false);
    expect(await store.refreshTokens.rotate(hash("c"))).toBe(true);
  });
});

describe("image assets", () => {
  const png = `data:image/png;base64,${Buffer.alloc(10, 1).toString("base64")}`;

  it("derive type and size from the data URL (image/jpeg without one)", () => {
    expect(describeImage(png)).toEqual({ image_type: "image/png", file_size: 10 });
    expect(describeImage(Buffer.alloc(5).toString("base64"))).toEqual({ image_type: "image/jpeg", file_size: 5 });
  });

  it("are stored once per decision and label, and listed for their owner only", async () => {
    const decision = { decisionId: "d1", userId: "u1", images: [png, png, png], createdAt: new Date() };
    expect(await store.imageAssets.saveForDecision(decision)).toBe(3);
    expect(await store.imageAssets.saveForDecision(decision)).toBe(0);
    expect((await store.imageAssets.listForDecision("d1", "u1")).map((a) => a.label)).toEqual(["image1", "image2", "image3"]);
    expect(await store.imageAssets.listForDecision("d1", "u2")).toEqual([]);
    expect(await store.imageAssets.count()).toBe(3);
  });
});
