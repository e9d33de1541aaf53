import { describe, expect, it } from "vitest";
import { useTempStore } from "./testing/temp-store";

const temp = useTempStore();

describe("users", () => {
  it("keeps one account per email across sign-in methods and a restart", async () => {
    const byMail = await temp.store.users.signInWithEmail("Ada@Example.com");
    expect(byMail).toMatchObject({ email: "ada@example.com", name: null, is_verified: true, avatar_url: null, google_sub: null });
    const concurrent = await Promise.all([temp.store.users.signInWithEmail("ada@example.com"), temp.store.users.signInWithEmail("ADA@example.com")]);
    expect(concurrent.map((u) => u.id)).toEqual([byMail.id, byMail.id]);
    const byGoogle = await temp.store.users.signInWithGoogle({ subject: "g-1", email: "ada@example.com", name: "Ada", avatar_url: "https://x.test/a.png" });
    expect(byGoogle).toMatchObject({ id: byMail.id, name: "Ada", avatar_url: "https://x.test/a.png", google_sub: "g-1" });
    await temp.reopen();
    expect(await temp.store.users.count()).toBe(1);
    expect(await temp.store.users.findByEmail("ada@EXAMPLE.com")).toMatchObject({ id: byMail.id, google_sub: "g-1" });
  });

  it("creates one account when two first sign-ins race", async () => {
    const [a, b] = await Promise.all([temp.store.users.signInWithEmail("new@example.com"), temp.store.users.signInWithEmail("new@example.com")]);
    expect(a.id).toBe(b.id);
    expect(await temp.store.users.count()).toBe(1);
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
    await temp.store.refreshTokens.insert(token(hash("a")));
    const results = await Promise.all([temp.store.refreshTokens.rotate(hash("a")), temp.store.refreshTokens.rotate(hash("a"))]);
    expect(results.sort()).toEqual([false, true]);
    await temp.store.refreshTokens.insert({ ...token(hash("b")), expires_at: new Date(Date.now() - 1) });
    expect(await temp.store.refreshTokens.rotate(hash("b"))).toBe(false);
    expect(await temp.store.refreshTokens.rotate(hash("c"))).toBe(false);
  });

  it("revoke a whole family and only it", async () => {
    await temp.store.refreshTokens.insert(token(hash("a")));
    await temp.store.refreshTokens.insert(token(hash("b")));
    await temp.store.refreshTokens.insert(token(hash("c"), "fam-2"));
    expect(await temp.store.refreshTokens.isFamilyRevoked("fam-1")).toBe(false);
    expect(await temp.store.refreshTokens.revokeFamily("fam-1")).toBe(2);
    expect(await temp.store.refreshTokens.isFamilyRevoked("fam-1")).toBe(true);
    expect(await temp.store.refreshTokens.rotate(hash("b"))).toBe(false);
    expect(await temp.store.refreshTokens.rotate(hash("c"))).toBe(true);
  });
});
