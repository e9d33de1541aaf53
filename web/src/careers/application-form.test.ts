import { describe, expect, it } from "vitest";
import { JOB_APPLICATION_MESSAGES as M } from "@sd/contracts";
import {
  accomplishmentCounter,
  APPLICATION_NOTICES,
  applicationFormData,
  checkChosenResume,
  hasErrors,
  validateApplication,
  type ApplicationValues,
} from "./application-form";

const valid: ApplicationValues = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 (20) 7946-0958",
  linkedin: "https://www.linkedin.com/in/ada",
  accomplishment: "Wrote the first published computer program.",
};
const MB = 1024 * 1024;

describe("validateApplication (the shared rules, checked on submit)", () => {
  it("accepts a complete application, with or without a resume", () => {
    expect(validateApplication(valid, null)).toEqual({});
    expect(validateApplication(valid, { name: "cv.pdf", type: "application/pdf", size: 10 * MB })).toEqual({});
  });

  it("reports every required field at once", () => {
    expect(validateApplication({ name: " ", email: "", phone: "", linkedin: "", accomplishment: "  " }, null)).toEqual({
      name: M.nameRequired,
      email: M.emailRequired,
      phone: M.phoneRequired,
      linkedin: M.linkedinRequired,
      accomplishment: M.accomplishmentRequired,
    });
  });

  it.each(["ada", "ada@example", "@example.com", "ada@@example.com", "ada lovelace@example.com"])("refuses the email %s", (email) => {
    expect(validateApplication({ ...valid, email }, null).email).toBe(M.emailInvalid);
  });

  it.each(["+1 (650) 555-0100", "650-555-0100", "+4930123456", "1234567890123456"])("accepts the phone %s", (phone) => {
    expect(validateApplication({ ...valid, phone }, null).phone).toBeUndefined();
  });

  it.each(["0650 555 0100", "+0 650", "12345678901234567", "650.555.0100", "call me", "++1 650"])("refuses the phone %s", (phone) => {
    expect(validateApplication({ ...valid, phone }, null).phone).toBe(M.phoneInvalid);
  });

  it("wants a LinkedIn URL", () => {
    expect(validateApplication({ ...valid, linkedin: "https://github.com/ada" }, null).linkedin).toBe(M.linkedinInvalid);
    expect(validateApplication({ ...valid, linkedin: "LinkedIn.com/in/ada" }, null).linkedin).toBeUndefined();
  });

  it("caps the accomplishment at 100 characters", () => {
    expect(validateApplication({ ...valid, accomplishment: "x".repeat(100) }, null).accomplishment).toBeUndefined();
    expect(validateApplication({ ...valid, accomplishment: "x".repeat(101) }, null).accomplishment).toBe(M.accomplishmentTooLong);
  });

  it("wants a resume named .pdf of at most 10 MB", () => {
    expect(validateApplication(valid, { name: "cv.doc", type: "application/msword", size: 10 }).resume).toBe(M.resumeNotPdf);
    expect(validateApplication(valid, { name: "cv.pdf", type: "application/pdf", size: 10 * MB + 1 }).resume).toBe(M.resumeTooLarge);
  });

  it("tells whether any error is left", () => {
    expect(hasErrors({})).toBe(false);
    expect(hasErrors({ phone: M.phoneInvalid })).toBe(true);
  });
});

describe("checkChosenResume (toasts when a file is chosen)", () => {
  it("checks the name first, then the type, then the size", () => {
    expect(checkChosenResume({ name: "cv.docx", type: "application/pdf", size: 20 * MB })).toEqual({ accepted: false, notice: APPLICATION_NOTICES.fileNameNotPdf });
    expect(checkChosenResume({ name: "cv.pdf", type: "text/plain", size: 20 * MB })).toEqual({ accepted: false, notice: APPLICATION_NOTICES.fileTypeNotPdf });
    expect(checkChosenResume({ name: "cv.pdf", type: "application/pdf", size: 10 * MB + 1 })).toEqual({ accepted: false, notice: APPLICATION_NOTICES.fileTooLarge });
  });

  it("accepts a PDF of up to 10 MB and names it", () => {
    expect(checkChosenResume({ name: "Ada CV.PDF", type: "application/pdf", size: 10 * MB })).toEqual({
      accepted: true,
      notice: { title: "Resume uploaded", description: "Ada CV.PDF" },
    });
  });

  it("uses the specification's texts", () => {
    expect(APPLICATION_NOTICES).toEqual({
      fileNameNotPdf: { title: "Invalid file type", description: "Please upload a PDF file only" },
      fileTypeNotPdf: { title: "Invalid file type", description: "Please upload a valid PDF file" },
      fileTooLarge: { title: "File too large", description: "Please upload a PDF file smaller than 10MB" },
      validationError: { title: "Validation Error", description: "Please fix the errors in the form before submitting" },
    });
  });
});

describe("accomplishmentCounter", () => {
  it("counts characters out of 100 and turns to a warning above 90", () => {
    expect(accomplishmentCounter("")).toEqual({ label: "0/100 characters", warning: false });
    expect(accomplishmentCounter("x".repeat(90))).toEqual({ label: "90/100 characters", warning: false });
    expect(accomplishmentCounter("x".repeat(91))).toEqual({ label: "91/100 characters", warning: true });
  });
});

describe("applicationFormData", () => {
  it("carries every field, the position and department, and the resume when there is one", () => {
    const resume = new Blob(["%PDF-1.7"], { type: "application/pdf" });
    const body = applicationFormData(valid, { position: "Software Engineers", department: "Engineering" }, resume, "cv.pdf");
    expect(Object.fromEntries([...body.entries()].filter(([, v]) => typeof v === "string"))).toEqual({
      ...valid,
      position: "Software Engineers",
      department: "Engineering",
    });
    expect((body.get("resume") as File).name).toBe("cv.pdf");
    expect(applicationFormData(valid, { position: "P", department: "D" }, null).has("resume")).toBe(false);
  });
});
