import { CircleCheck, CircleX } from "lucide-react";

/** Red when the model gave no response (null), green otherwise. */
export function ResponseIcon({ response }: { response: string | null }) {
  return response === null ? (
    <CircleX className="size-4 shrink-0 text-red-600" role="img" aria-label="No answer" />
  ) : (
    <CircleCheck className="size-4 shrink-0 text-emerald-600" role="img" aria-label="Answered" />
  );
}
