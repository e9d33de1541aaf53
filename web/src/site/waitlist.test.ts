import { describe, expect, it } from "vitest";
import { bodyOf, jsonResponse, serveFetch } from "../auth/test-support";
import { joinWaitlist, WAITLIST_NETWORK_ERROR } from "./waitlist";

describe("joinWaitlist", () => {
  it("posts {email} as JSON to /api/email-request", async () => {
    const calls = serveFetch(jsonResponse(200, { success: true, message: "Welcome!" }));
    await joinWaitlist("ada@example.com");
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/email-request");
    expect(calls[0]?.init.method).toBe("POST");
    expect(new Headers(calls[0]?.init.headers).get("content-type")).toBe("application/json");
    expect(bodyOf(calls[0]!.init)).toEqual({ email: "ada@example.com" });
  });

  it("returns the server's message on success", async () => {
    serveFetch(jsonResponse(200, { success: true, message: "Thanks for joining!" }));
    expect(await joinWaitlist("ada@example.com")).toEqual({ ok: true, message: "Thanks for joining!" });
  });

  it("returns the server's message when success is false", async () => {
    serveFetch(jsonResponse(400, { success: false, message: "Please enter a valid email address." }));
    expect(await joinWaitlist("ada")).toEqual({ ok: false, message: "Please enter a valid email address." });
  });

  it("treats success false as a failure even with status 200", async () => {
    serveFetch(jsonResponse(200, { success: false, message: "Not now." }));
    expect(await joinWaitlist("ada@example.com")).toEqual({ ok: false, message: "Not now." });
  });

  it("returns the rate limiter's detail for a 429", async () => {
    serveFetch(jsonResponse(429, { detail: "Too many requests. Please wait an hour and try again." }));
    expect(await joinWaitlist("ada@example.com")).toEqual({
      ok: false,
      message: "Too many requests. Please wait an hour and try again.",
    });
  });

  it("says something went wrong when the network fails", async () => {
    serveFetch(new TypeError("Failed to fetch"));
    expect(await joinWaitlist("ada@example.com")).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
    expect(WAITLIST_NETWORK_ERROR).toBe("Something went wrong. Please try again later.");
  });

  it("says something went wrong for an answer that is not JSON, has no message, or is not {success, message}", async () => {
    serveFetch(
      new Response("<html>Bad gateway</html>", { status: 502 }),
      jsonResponse(500, { error: "boom" }),
      jsonResponse(200, null),
      jsonResponse(200, { success: "yes" }),
      jsonResponse(200, { success: false, message: " " }),
    );
    for (let i = 0; i < 5; i++) expect(await joinWaitlist("a@b.co")).toEqual({ ok: false, message: WAITLIST_NETWORK_ERROR });
  });
});
