import { API_KEY_MESSAGES } from "@sd/contracts";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useAuthorization } from "../auth/session-context";
import { toast } from "../ui/toast";
import { copySecret } from "./clipboard";
import { revealApiKey } from "./settings-api";
import { toastError } from "./useSettingsQueries";

export interface KeySecret {
  /** The key's value while shown; null while hidden (the table then shows the fixed masked placeholder). */
  shown: string | null;
  revealing: boolean;
  copying: boolean;
  show(): void;
  hide(): void;
  copy(): void;
}

/**
 * One key's secret on the settings page: shown on request (GET /api/api-keys/{id}/reveal) and
 * forgotten when hidden; copied to the clipboard without being shown. The secret lives only in
 * this row's state, never in the query cache, so it goes when the row does.
 */
export function useKeySecret(keyId: string): KeySecret {
  const session = useAuthorization();
  const [shown, setShown] = useState<string | null>(null);
  const reveal = useMutation({
    mutationFn: () => revealApiKey(keyId, session),
    gcTime: 0,
    onSuccess: setShown,
    onError: () => toastError(API_KEY_MESSAGES.revealFailed),
  });
  const copy = useMutation({
    // A key already shown is copied as it is; otherwise it is read from the server for the copy only.
    mutationFn: () => copySecret(navigator.clipboard, shown !== null ? Promise.resolve(shown) : revealApiKey(keyId, session)),
    gcTime: 0,
    onSuccess: (outcome) => {
      if (outcome === "copied") toast.success(API_KEY_MESSAGES.copiedTitle, API_KEY_MESSAGES.copied);
      else toastError(outcome === "reveal-failed" ? API_KEY_MESSAGES.revealFailed : API_KEY_MESSAGES.copyFailed);
    },
  });
  return {
    shown,
    revealing: reveal.isPending,
    copying: copy.isPending,
    show: () => reveal.mutate(),
    hide: () => {
      reveal.reset();
      setShown(null);
    },
    copy: () => copy.mutate(),
  };
}
