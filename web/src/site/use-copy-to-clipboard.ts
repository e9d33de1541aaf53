import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "../ui/toast";

/** How long the copy button shows its confirmation. */
export const COPY_CONFIRMATION_MS = 2000;

/**
 * Copies text with the Clipboard API: toast 'Copied!' and `copied` true for two seconds; a refused
 * copy (no permission, not a secure page) gets an error toast.
 */
export function useCopyToClipboard(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string) => {
    try {
      if (!navigator.clipboard) throw new Error("The Clipboard API is not available on this page");
      await navigator.clipboard.writeText(text);
    } catch {
      toast.error("Error", "Failed to copy to clipboard");
      return;
    }
    toast.success("Copied!");
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  }, []);

  return { copied, copy };
}
