import { describe, expect, it } from "vitest";
import { useTempStore } from "./testing/temp-store";

const temp = useTempStore();

describe("waitlist", () => {
  it("keeps one entry per email, whatever its case or spaces, across a restart", async () => {
    expect(await temp.store.waitlist.join("Ada@Example.com", "127.0.0.1")).toBe(true);
    expect(await temp.store.waitlist.join(" ada@example.com ", "10.0.0.1")).toBe(false);
    await temp.reopen();
    expect(await temp.store.waitlist.count()).toBe(1);
    expect(await temp.store.waitlist.find("ADA@example.com")).toMatchObject({ email: "Ada@Example.com", ip: "127.0.0.1" });
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
    await temp.store.applications.insert(application);
    expect(await temp.store.applications.findById("app-1")).toEqual(application);
  });

  it("stores an application without a resume", async () => {
    await temp.store.applications.insert({ ...application, id: "app-2", resume: null });
    expect((await temp.store.applications.findById("app-2"))?.resume).toBeNull();
  });

  it("refuses an accomplishment over 100 characters and stores nothing", async () => {
    await expect(temp.store.applications.insert({ ...application, id: "app-3", accomplishment: "x".repeat(101) })).rejects.toThrow();
    expect(await temp.store.applications.count()).toBe(0);
  });
});
