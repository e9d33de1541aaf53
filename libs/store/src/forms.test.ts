import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

describe("waitlist", () => {
  it("keeps one entry per email, whatever its case or spaces, across a restart", async () => {
    expect(await store.waitlist.join("Ada@Example.com", "127.0.0.1")).toBe(true);
    expect(await store.waitlist.join(" ada@example.com ", "10.0.0.1")).toBe(false);
    await store.close();
    store = await openStore({ mongoUrl: null, dataDir: dir.path });
    expect(await store.waitlist.count()).toBe(1);
    expect(await store.waitlist.find("ADA@example.com")).toMatchObject({ email: "Ada@Example.com", ip: "127.0.0.1" });
  });
});

describe("job applications", () => {
  const application = {
    id: "app-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+44 20 7946 0958",
    linkedin: "https://www.linkedin.com/in/ada",
    accomplishment: "Wrote the first program.",
    position: "Software Engineers",
    department: "Engineering",
    resume: { filename: "cv.pdf", content_type: "application/pdf", size: 8, data_base64: Buffer.from("%PDF-1.7").toString("base64") },
    created_at: new Date("2026-01-02T03:04:05Z"),
    ip: "127.0.0.1",
  };

  it("stores an application with its resume and reads it back", async () => {
    await store.applications.insert(application);
    expect(await store.applications.findById("app-1")).toEqual(application);
  });

  it("stores an application without a resume", async () => {
    await store.applications.insert({ ...application, id: "app-2", resume: null });
    expect((await store.applications.findById("app-2"))?.resume).toBeNull();
  });

  it("refuses an accomplishment over 100 characters and stores nothing", async () => {
    await expect(store.applications.insert({ ...application, id: "app-3", accomplishment: "x".repeat(101) })).rejects.toThrow();
    expect(await store.applications.count()).toBe(0);
  });
});
