import { z } from "zod";

/**
 * The job-application form's rules, written once for the web
 * form and the gateway. The rules are plain functions (the form checks every field at once, the
 * server the first problem); only the answer has a zod schema, which the web app parses it with.
 */

/** The fields a visitor types in. */
export interface JobApplicationFields {
  name: string;
  email: string;
  phone: string;
  linkedin: string;
  accomplishment: string;
}

export type JobApplicationField = keyof JobApplicationFields;

/** What the rules need to know about a chosen resume. */
export interface ResumeFacts {
  name: string;
  size: number;
}

/** One message per field in error; a field without an entry is valid. */
export type JobApplicationErrors = Partial<Record<JobApplicationField | "resume", string>>;

export const JOB_APPLICATION_LIMITS = {
  /** The accomplishment's maximum length; the textarea caps at it too. */
  maxAccomplishmentLength: 100,
  /** The character counter turns orange above this many characters. */
  accomplishmentWarningAbove: 90,
  /** 10 MB, as 10*1024*1024 bytes. */
  maxResumeBytes: 10 * 1024 * 1024,
  /** Server bounds of the other fields (the inputs cap at them, so a visitor never meets them). */
  maxNameLength: 200,
  maxEmailLength: 320,
  maxPhoneLength: 40,
  maxLinkedinLength: 500,
  maxPositionLength: 200,
  maxDepartmentLength: 200,
  maxResumeNameLength: 255,
} as const;

/** Texts of the form's rules and toasts, verbatim from the specification where it words them. */
export const JOB_APPLICATION_MESSAGES = {
  nameRequired: "Name is required",
  emailRequired: "Email is required",
  emailInvalid: "Please enter a valid email address",
  phoneRequired: "Phone number is required",
  phoneInvalid: "Please enter a valid phone number",
  linkedinRequired: "LinkedIn profile is required",
  linkedinInvalid: "Please enter a valid LinkedIn profile URL",
  accomplishmentRequired: "Most incredible accomplishment is required",
  accomplishmentTooLong: "Accomplishment must be under 100 characters",
  resumeNotPdf: "Resume must be a PDF file",
  resumeTooLarge: "Resume file size must be less than 10MB",
  /** Server-side only: the web page always sends the position and department it was opened for. */
  positionRequired: "Position is required",
  departmentRequired: "Department is required",
  submitted: "Application submitted successfully! Our hiring team will review it and get back to you within 2-3 business days.",
} as const;

/** The host a LinkedIn profile URL must mention. */
export const LINKEDIN_HOST = "linkedin.com";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An optional plus sign, a digit 1-9, then up to 15 more digits (16 digits at most). */
const PHONE_PATTERN = /^\+?[1-9]\d{0,15}$/;
/** Spaces, dashes and parentheses people write phone numbers with. */
const PHONE_SEPARATORS = /[\s\-()]/g;

const tooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

export function isValidPhone(value: string): boolean {
  return PHONE_PATTERN.test(value.replace(PHONE_SEPARATORS, ""));
}

export function isLinkedInProfile(value: string): boolean {
  return value.toLowerCase().includes(LINKEDIN_HOST);
}

export const isPdfFileName = (name: string): boolean => name.toLowerCase().endsWith(".pdf");

/** The first problem of one field, or null when it is valid. */
export function fieldError(field: JobApplicationField, raw: string): string | null {
  const M = JOB_APPLICATION_MESSAGES;
  const L = JOB_APPLICATION_LIMITS;
  const value = raw.trim();
  switch (field) {
    case "name":
      if (!value) return M.nameRequired;
      return value.length > L.maxNameLength ? tooLong("Name", L.maxNameLength) : null;
    case "email":
      if (!value) return M.emailRequired;
      if (value.length > L.maxEmailLength) return tooLong("Email", L.maxEmailLength);
      return isValidEmail(value) ? null : M.emailInvalid;
    case "phone":
      if (!value) return M.phoneRequired;
      if (value.length > L.maxPhoneLength) return tooLong("Phone number", L.maxPhoneLength);
      return isValidPhone(value) ? null : M.phoneInvalid;
    case "linkedin":
      if (!value) return M.linkedinRequired;
      if (value.length > L.maxLinkedinLength) return tooLong("LinkedIn profile", L.maxLinkedinLength);
      return isLinkedInProfile(value) ? null : M.linkedinInvalid;
    case "accomplishment":
      if (!value) return M.accomplishmentRequired;
      return raw.length > L.maxAccomplishmentLength ? M.accomplishmentTooLong : null;
  }
}

/** The problem of an optional resume (by its name and size), or null. */
export function resumeError(resume: ResumeFacts | null | undefined): string | null {
  if (!resume) return null;
  if (!isPdfFileName(resume.name)) return JOB_APPLICATION_MESSAGES.resumeNotPdf;
  if (resume.size > JOB_APPLICATION_LIMITS.maxResumeBytes) return JOB_APPLICATION_MESSAGES.resumeTooLarge;
  return null;
}

export const JOB_APPLICATION_FIELDS: readonly JobApplicationField[] = ["name", "email", "phone", "linkedin", "accomplishment"];

/** Every rule of the form, checked at once (the form shows all errors; the server answers the first). */
export function validateJobApplication(fields: JobApplicationFields, resume?: ResumeFacts | null): JobApplicationErrors {
  const errors: JobApplicationErrors = {};
  for (const field of JOB_APPLICATION_FIELDS) {
    const error = fieldError(field, fields[field]);
    if (error) errors[field] = error;
  }
  const resumeProblem = resumeError(resume);
  if (resumeProblem) errors.resume = resumeProblem;
  return errors;
}

/** The position and department an application is for (the server requires both). */
export function targetError(position: string, department: string): string | null {
  const L = JOB_APPLICATION_LIMITS;
  if (!position.trim()) return JOB_APPLICATION_MESSAGES.positionRequired;
  if (position.trim().length > L.maxPositionLength) return tooLong("Position", L.maxPositionLength);
  if (!department.trim()) return JOB_APPLICATION_MESSAGES.departmentRequired;
  if (department.trim().length > L.maxDepartmentLength) return tooLong("Department", L.maxDepartmentLength);
  return null;
}

/** The answer of POST /api/job-application on success. */
export const JobApplicationResponseSchema = z.object({ message: z.string(), application_id: z.string() });
export type JobApplicationResponse = z.infer<typeof JobApplicationResponseSchema>;
