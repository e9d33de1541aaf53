import type { Request, RequestHandler } from "express";
import multer from "multer";
import {
  JOB_APPLICATION_FIELDS,
  JOB_APPLICATION_LIMITS,
  JOB_APPLICATION_MESSAGES,
  targetError,
  validateJobApplication,
  type JobApplicationFields,
} from "@sd/contracts";
import { HttpError } from "../http/errors";
import { refuseCompressedBody } from "../http/json-body";

/** The only form field that may carry a file. */
export const RESUME_FIELD = "resume";

/** A resume that passed every check: a real PDF (its bytes say so) of at most 10 MB. */
export interface ReceivedResume {
  filename: string;
  content: Buffer;
}

export interface ReceivedApplication extends JobApplicationFields {
  position: string;
  department: string;
  resume: ReceivedResume | null;
}

const PDF_MAGIC = Buffer.from("%PDF-", "latin1");
const MAX_FIELD_BYTES = 4096;

const NO_BOUNDARY =
  "The multipart/form-data Content-Type has no boundary: let your HTTP client build the form (do not set the Content-Type header by hand).";
const MALFORMED_FORM = "The form data is malformed or incomplete: send the whole application again as multipart/form-data.";

/** The `boundary` parameter of a multipart Content-Type, quoted or not; null when absent or empty. */
function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2] ?? null;
}

/**
 * Parses the multipart body into memory (one resume at most, 10 MB at most) and turns every
 * parser refusal into the status and `detail` the client sees.
 */
export function receiveMultipart(): RequestHandler {
  const upload = multer({
    storage: multer.memoryStorage(),
    // Browsers send file names as UTF-8.
    defParamCharset: "utf8",
    limits: {
      fileSize: JOB_APPLICATION_LIMITS.maxResumeBytes,
      files: 1,
      fields: 20,
      parts: 21,
      fieldSize: MAX_FIELD_BYTES,
      fieldNestingDepth: 0,
    },
  }).single(RESUME_FIELD);
  return (req, res, next) => {
    if (!req.is("multipart/form-data")) {
      next(new HttpError(400, "Send the application as multipart/form-data."));
      return;
    }
    if (boundaryOf(req.headers["content-type"] ?? "") === null) {
      next(new HttpError(400, NO_BOUNDARY));
      return;
    }
    // Read as it comes: a compressed form would only reach the parser as garbage.
    refuseCompressedBody(req, res, (refusal?: unknown) => {
      if (refusal !== undefined) return next(refusal);
      upload(req, res, (error?: unknown) => next(error === undefined ? undefined : fromUploadError(error)));
    });
  };
}

/**
 * Every upload error is the client's doing: the resume is kept in memory, so nothing on our side
 * can fail while parsing. Errors that are not a limit come from the parser meeting a body that is
 * not multipart (garbage, a cut-off part, no closing boundary) or from the client going away.
 */
function fromUploadError(error: unknown): HttpError {
  if (!(error instanceof multer.MulterError)) return new HttpError(400, MALFORMED_FORM);
  switch (error.code) {
    case "LIMIT_FILE_SIZE":
      return new HttpError(413, JOB_APPLICATION_MESSAGES.resumeTooLarge);
    case "LIMIT_FILE_COUNT":
      return new HttpError(400, "Attach one resume file at most.");
    case "LIMIT_UNEXPECTED_FILE":
      return error.field === RESUME_FIELD
        ? new HttpError(400, "Attach one resume file at most.")
        : new HttpError(400, `Unexpected file field '${error.field ?? ""}': only '${RESUME_FIELD}' may carry a file.`);
    case "LIMIT_FIELD_VALUE":
      return new HttpError(400, `The field '${error.field ?? ""}' is too long.`);
    default:
      return new HttpError(400, `Invalid form data: ${error.message}.`);
  }
}

/** A text field sent once, or "" when absent. */
function textField(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined) return "";
  if (typeof value !== "string") throw new HttpError(400, `Send the field '${key}' once, as text.`);
  return value;
}

/** The file's own name without any folder, control characters or excess length (it still ends in .pdf). */
export function safeResumeName(original: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (original.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  const max = JOB_APPLICATION_LIMITS.maxResumeNameLength;
  return base.length <= max ? base : `${base.slice(0, max - 4)}.pdf`;
}

export const looksLikePdf = (content: Buffer): boolean => content.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);

/** The same rules as the web form (one shared module), plus position, department and the PDF's bytes. */
export function readApplication(req: Request): ReceivedApplication {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const fields: JobApplicationFields = {
    name: textField(body, "name"),
    email: textField(body, "email"),
    phone: textField(body, "phone"),
    linkedin: textField(body, "linkedin"),
    accomplishment: textField(body, "accomplishment"),
  };
  const position = textField(body, "position");
  const department = textField(body, "department");
  const file = req.file;

  const errors = validateJobApplication(fields, file ? { name: file.originalname, size: file.size } : null);
  const first = JOB_APPLICATION_FIELDS.map((key) => errors[key]).find(Boolean) ?? errors.resume ?? targetError(position, department);
  if (first) throw new HttpError(400, first);
  if (file && !looksLikePdf(file.buffer)) throw new HttpError(400, JOB_APPLICATION_MESSAGES.resumeNotPdf);

  return {
    name: fields.name.trim(),
    email: fields.email.trim(),
    phone: fields.phone.trim(),
    linkedin: fields.linkedin.trim(),
    accomplishment: fields.accomplishment.trim(),
    position: position.trim(),
    department: department.trim(),
    resume: file ? { filename: safeResumeName(file.originalname), content: file.buffer } : null,
  };
}
