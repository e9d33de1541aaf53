import { readSubmitAnswer, SUBMIT_GENERIC_ERROR, type SubmitOutcome } from "./application-form";

export const JOB_APPLICATION_PATH = "/api/job-application";

/** Sends the multipart application; never throws (a network failure is the generic error). */
export async function submitApplication(body: FormData): Promise<SubmitOutcome> {
  try {
    const response = await fetch(JOB_APPLICATION_PATH, { method: "POST", body });
    return readSubmitAnswer(response, await response.text());
  } catch {
    return { ok: false, message: SUBMIT_GENERIC_ERROR };
  }
}
