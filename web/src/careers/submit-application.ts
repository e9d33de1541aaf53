import { ENDPOINTS } from "@sd/contracts/endpoints";
import { callEndpoint } from "../api/endpoint";
import { submitFailureText, submittedText, type SubmitOutcome } from "./application-form";

export const JOB_APPLICATION_PATH = ENDPOINTS.applyForJob.path;

/** Sends the multipart application through the API client; never throws (every failure becomes the toast's text). */
export async function submitApplication(body: FormData): Promise<SubmitOutcome> {
  try {
    const { message } = await callEndpoint(ENDPOINTS.applyForJob, { body });
    return { ok: true, message: submittedText(message) };
  } catch (error) {
    return { ok: false, message: submitFailureText(error) };
  }
}
