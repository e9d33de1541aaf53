import { JobApplicationResponseSchema } from "@sd/contracts";
import { apiRequest } from "../api/client";
import { submitFailureText, submittedText, type SubmitOutcome } from "./application-form";

export const JOB_APPLICATION_PATH = "/api/job-application";

/** Sends the multipart application through the API client; never throws (every failure becomes the toast's text). */
export async function submitApplication(body: FormData): Promise<SubmitOutcome> {
  try {
    const { message } = await apiRequest(JOB_APPLICATION_PATH, { method: "POST", body, schema: JobApplicationResponseSchema });
    return { ok: true, message: submittedText(message) };
  } catch (error) {
    return { ok: false, message: submitFailureText(error) };
  }
}
