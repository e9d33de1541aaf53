import { JOB_APPLICATION_MESSAGES } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { jsonResponse, serveFetch } from "../auth/test-support";
import { SUBMIT_FAILED, SUBMIT_GENERIC_ERROR } from "./application-form";
import { JOB_APPLICATION_PATH, submitApplication } from "./submit-application";

const form = () => {
  const body = new FormData();
  body.append("name", "Ada Lovelace");
  return body;
};

describe("submitApplication", () => {
  it("POSTs the multipart form as is (the browser writes its content type) and shows the server's message", async () => {
    const calls = serveFetch(jsonResponse(200, { message: "Thanks!", application_id: "a1" }));
    const body = form();
    expect(await submitApplication(body)).toEqual({ ok: true, message: "Thanks!" });
    expect(calls[0]?.url).toBe(JOB_APPLICATION_PATH);
    expect(JOB_APPLICATION_PATH).toBe("/api/job-application");
    expect(calls[0]?.init.method).toBe("POST");
    expect(calls[0]?.init.body).toBe(body);
    expect(new Headers(calls[0]?.init.headers).has("content-type")).toBe(false);
  });

  it("shows the specification's text when the receipt's message is blank", async () => {
    serveFetch(jsonResponse(200, { message: "", application_id: "a1" }));
    expect(await submitApplication(form())).toEqual({ ok: true, message: JOB_APPLICATION_MESSAGES.submitted });
  });

  it("prefers the server's detail, then its message, then 'Failed to submit application'", async () => {
    serveFetch(
      jsonResponse(400, { detail: "Name is required", message: "other" }),
      jsonResponse(500, { message: "Mailbox full" }),
      jsonResponse(500, { error: "x" }),
      jsonResponse(500, null),
    );
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await submitApplication(form()));
    expect(outcomes).toEqual([
      { ok: false, message: "Name is required" },
      { ok: false, message: "Mailbox full" },
      { ok: false, message: SUBMIT_FAILED },
      { ok: false, message: SUBMIT_FAILED },
    ]);
    expect(SUBMIT_FAILED).toBe("Failed to submit application");
  });

  it("says 'Server error: {status} {reason}' for a body that is not JSON, or a 2xx answer that is not a receipt", async () => {
    serveFetch(
      new Response("<html>bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
      new Response("", { status: 504 }),
      new Response("<html>", { status: 200, statusText: "OK" }),
      jsonResponse(200, { unexpected: true }),
    );
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await submitApplication(form()));
    expect(outcomes).toEqual([
      { ok: false, message: "Server error: 502 Bad Gateway" },
      { ok: false, message: "Server error: 504" },
      { ok: false, message: "Server error: 200 OK" },
      { ok: false, message: "Server error: 200" },
    ]);
  });

  it("gives the generic text when the request fails without an answer", async () => {
    serveFetch(new TypeError("Failed to fetch"));
    expect(await submitApplication(form())).toEqual({ ok: false, message: SUBMIT_GENERIC_ERROR });
    expect(SUBMIT_GENERIC_ERROR).toBe("There was an error processing your application. Please try again.");
  });
});
