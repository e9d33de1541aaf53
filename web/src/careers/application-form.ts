import {
  JOB_APPLICATION_LIMITS,
  JOB_APPLICATION_MESSAGES,
  isPdfFileName,
  validateJobApplication,
  type JobApplicationErrors,
  type JobApplicationFields,
} from "@sd/contracts";
import { ApiError, InvalidResponseError } from "../api/client";

/**
 * The application form's logic without React. The rules
 * themselves live in @sd/contracts, shared with the server.
 */

export type ApplicationValues = JobApplicationFields;
export type ApplicationErrors = JobApplicationErrors;

export const EMPTY_APPLICATION: ApplicationValues = { name: "", email: "", phone: "", linkedin: "", accomplishment: "" };

/** Where a successful applicant goes, and after how long. */
export const REDIRECT_AFTER_SUCCESS = { path: "/careers", delayMs: 2000 } as const;

export const PDF_MIME_TYPE = "application/pdf";
/** The file input's filter. */
export const RESUME_ACCEPT = ".pdf,application/pdf";

export interface Notice {
  title: string;
  description?: string;
}

/** The form's toasts, verbatim from the specification. */
export const APPLICATION_NOTICES = {
  fileNameNotPdf: { title: "Invalid file type", description: "Please upload a PDF file only" },
  fileTypeNotPdf: { title: "Invalid file type", description: "Please upload a valid PDF file" },
  fileTooLarge: { title: "File too large", description: "Please upload a PDF file smaller than 10MB" },
  validationError: { title: "Validation Error", description: "Please fix the errors in the form before submitting" },
} as const satisfies Record<string, Notice>;

export const SUBMIT_FAILED = "Failed to submit application";
export const SUBMIT_GENERIC_ERROR = "There was an error processing your application. Please try again.";
export const ERROR_TITLE = "Error";

/** The facts of a chosen file the checks need (a File has them). */
export interface ChosenFile {
  name: string;
  type: string;
  size: number;
}

export type ResumeChoice = { accepted: true; notice: Notice } | { accepted: false; notice: Notice };

/** Checks a file as it is chosen: its name, then its type, then its size. */
export function checkChosenResume(file: ChosenFile): ResumeChoice {
  if (!isPdfFileName(file.name)) return { accepted: false, notice: APPLICATION_NOTICES.fileNameNotPdf };
  if (file.type !== PDF_MIME_TYPE) return { accepted: false, notice: APPLICATION_NOTICES.fileTypeNotPdf };
  if (file.size > JOB_APPLICATION_LIMITS.maxResumeBytes) return { accepted: false, notice: APPLICATION_NOTICES.fileTooLarge };
  return { accepted: true, notice: { title: "Resume uploaded", description: file.name } };
}

/** Every rule, checked on submit. */
export function validateApplication(values: ApplicationValues, resume: ChosenFile | null): ApplicationErrors {
  return validateJobApplication(values, resume);
}

export const hasErrors = (errors: ApplicationErrors): boolean => Object.values(errors).some(Boolean);

/** The live counter under the accomplishment: 'n/100 characters', orange above 90. */
export function accomplishmentCounter(text: string): { label: string; warning: boolean } {
  const count = text.length;
  return {
    label: `${count}/${JOB_APPLICATION_LIMITS.maxAccomplishmentLength} characters`,
    warning: count > JOB_APPLICATION_LIMITS.accomplishmentWarningAbove,
  };
}

/** The multipart body of POST /api/job-application. */
export function applicationFormData(
  values: ApplicationValues,
  target: { position: string; department: string },
  resume: Blob | null,
  resumeName?: string,
): FormData {
  const body = new FormData();
  body.append("name", values.name);
  body.append("email", values.email);
  body.append("phone", values.phone);
  body.append("linkedin", values.linkedin);
  body.append("accomplishment", values.accomplishment);
  body.append("position", target.position);
  body.append("department", target.department);
  if (resume) body.append("resume", resume, resumeName);
  return body;
}

export type SubmitOutcome = { ok: true; message: string } | { ok: false; message: string };

/**
 * Why a submission failed, as the form's error toast words it: the
 * server's detail or message, else 'Failed to submit application'; a body that is not JSON (or a
 * 2xx answer that is not the application's receipt) 'Server error: {status} {reason}'; no answer
 * at all, the generic text.
 */
export function submitFailureText(error: unknown): string {
  if (!(error instanceof ApiError)) return SUBMIT_GENERIC_ERROR;
  if (error instanceof InvalidResponseError || error.source === "unreadable") {
    return `Server error: ${[error.status, error.statusText].filter(Boolean).join(" ")}`;
  }
  return error.explained ? error.message : SUBMIT_FAILED;
}

/** The success toast: the server's message, else the specification's text. */
export const submittedText = (message: string): string => (message.trim() !== "" ? message : JOB_APPLICATION_MESSAGES.submitted);
