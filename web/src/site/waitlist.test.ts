import { describe, expect, it } from "vitest";
import { joinWaitlist, WAITLIST_NETWORK_ERROR } from "./waitlist";

/** A fetch that records its call and answers with the given status and body text. */
function answering(status: number, body: string) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fetcher = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return { fetcher, calls };
}

describe("joinWaitlist", () => {
  it("posts {email} as JSON to /api/email-request", async () => {
    const { fetcher, calls } = answering(200, JSON.stringify({ success: true, message: "Welcome!" }));
    await joinWaitlist("ada@example.com", fetcher);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/email-request");
    expect(calls[0]?.init?.method).toBe("POST");
    expect(new Headers(calls[0]?.init?.headers).get("content-type")).toBe("application/json");
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ email: "ada@example.com" });
  });

  it("returns the server's message on success", async () => {
    const { fetcher } = answering(200, JSON.stringify({ success: true, message: "Thanks for joining!" }));
    expect(await joinWaitlist("ada@example.com", fetcher)).toEqual({ ok: true, message: "Thanks for joining!" });
  });

  it("returns the server's message when success is false", async () => {
    const { fetcher } = answering(400, JSON.stringify({ success: false, message: "Please enter a valid email address." }));
    expect(await joinWaitlist("ada", fetcher)).toEqual({ ok: false, message: "Please enter a valid email address." });
  });

  it("treats success false as a failure even with status 200", async () => {
    const { fetcher } = answering(200, JSON.stringify({ success: false, message: "Not now." }));
    expect(await joinWaitlist("ada@example.com", fetcher)).toEqual({ ok: false, message: "Not now." });
  });

  it("returns the rate limiter's detail for a 429", async () => {
    const { fetcher } = answering(429, JSON.stringify({ detail: "Too many requests. Please wait an hour and try again." }));
    expect(await joinWaitlist("ada@example.com", fetcher)).toEqual({
      ok: false,
      message: "Too many requests. Please wait an hour and try again.",
    });
  });

  it("says something went wrong when the network fails", async () => {
    const fetcher = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    expect(await joinWaitlist("ada@example.com", fetcher)).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
    expect(WAITLIST_NETWORK_ERROR).toBe("Something went wrong. Please try again later.");
  });

  it("says something went wrong for an answer that is not JSON or has no message", async () => {
    expect(await joinWaitlist("a@b.co", answering(502, "<html>Bad gateway</html>").fetcher)).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
    expect(await joinWaitlist("a@b.co", answering(500, JSON.stringify({ error: "boom" })).fetcher)).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
    expect(await joinWaitlist("a@b.co", answering(200, "null").fetcher)).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
  });
});
