import { useCallback, useEffect, useState } from "react";
import { useNavigate } from "react-router";
import type { JobApplicationField } from "@sd/contracts";
import { toast } from "../ui/toast";
import {
  APPLICATION_NOTICES,
  applicationFormData,
  checkChosenResume,
  EMPTY_APPLICATION,
  ERROR_TITLE,
  hasErrors,
  REDIRECT_AFTER_SUCCESS,
  validateApplication,
  type ApplicationErrors,
  type ApplicationValues,
} from "./application-form";
import { submitApplication } from "./submit-application";

/** idle (editable) -> submitting ('Processing...') -> submitted (leaving for /careers) or back to idle on failure. */
export type ApplicationStatus = "idle" | "submitting" | "submitted";

export interface ApplicationTarget {
  position: string;
  department: string;
}

/** The application form's state and actions. */
export function useApplicationForm(target: ApplicationTarget) {
  const navigate = useNavigate();
  const [values, setValues] = useState<ApplicationValues>(EMPTY_APPLICATION);
  const [errors, setErrors] = useState<ApplicationErrors>({});
  const [resume, setResume] = useState<File | null>(null);
  const [status, setStatus] = useState<ApplicationStatus>("idle");
  /** Bumped by each refused submit, so the page can move focus to the first field in error. */
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (status !== "submitted") return;
    const timer = setTimeout(() => navigate(REDIRECT_AFTER_SUCCESS.path), REDIRECT_AFTER_SUCCESS.delayMs);
    return () => clearTimeout(timer);
  }, [status, navigate]);

  const clearError = useCallback(
    (field: keyof ApplicationErrors) =>
      setErrors((current) => {
        if (!current[field]) return current;
        const { [field]: _cleared, ...rest } = current;
        return rest;
      }),
    [],
  );

  /** Editing a field clears that field's error. */
  const setField = useCallback((field: JobApplicationField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    clearError(field);
  }, [clearError]);

  /** Checks a chosen file; returns whether it was kept (a refused file leaves no resume). */
  const chooseResume = useCallback((file: File | null): boolean => {
    clearError("resume");
    if (!file) {
      setResume(null);
      return false;
    }
    const choice = checkChosenResume(file);
    if (choice.accepted) toast.success(choice.notice.title, choice.notice.description);
    else toast.error(choice.notice.title, choice.notice.description);
    setResume(choice.accepted ? file : null);
    return choice.accepted;
  }, [clearError]);

  const removeResume = useCallback(() => {
    setResume(null);
    clearError("resume");
  }, [clearError]);

  const submit = useCallback(async () => {
    if (status !== "idle") return;
    const found = validateApplication(values, resume);
    setErrors(found);
    if (hasErrors(found)) {
      toast.error(APPLICATION_NOTICES.validationError.title, APPLICATION_NOTICES.validationError.description);
      setRefusals((n) => n + 1);
      return;
    }
    setStatus("submitting");
    const outcome = await submitApplication(applicationFormData(values, target, resume, resume?.name));
    if (outcome.ok) {
      toast.success(outcome.message);
      setStatus("submitted");
    } else {
      toast.error(ERROR_TITLE, outcome.message);
      setStatus("idle");
    }
  }, [status, values, resume, target]);

  return { values, errors, resume, status, refusals, setField, chooseResume, removeResume, submit };
}
