import { Copy, Link2, Link2Off, RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { ApiError } from "../api/client";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { DetailSection } from "./DetailSection";
import { formatLocalTime } from "./format";
import { useDecisionShare } from "./share-api";

const failure = (error: Error | null) => (error ? (error instanceof ApiError && error.message ? error.message : "The share link could not be changed. Please try again.") : null);

/**
 * The owner's share control on the decision page: off by default; a link shows this one decision
 * read-only to anyone who has it, with its images only when ticked. The link is shown once, when it
 * is made (only its hash is kept); a new link replaces the old one, and revoking ends it at once.
 */
export function ShareControl({ decisionId, userId, imageCount }: { decisionId: string; userId: string; imageCount: number }) {
  const { status, create, revoke } = useDecisionShare(decisionId, userId);
  const [includeImages, setIncludeImages] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const checkboxId = useId();
  const busy = create.isPending || revoke.isPending;
  const make = () =>
    create.mutate(includeImages, {
      onSuccess: (made) => setLink(new URL(made.path, window.location.origin).href),
    });
  const end = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setLink(null);
        toast.success("Share link revoked", "The link no longer opens this decision.");
      },
    });
  const copy = async () => {
    if (!link) return;
    await navigator.clipboard.writeText(link);
    toast.success("Copied!", "Share link copied to your clipboard.");
  };
  const shared = status.data?.shared === true;
  const error = failure(create.error ?? revoke.error ?? status.error);

  return (
    <DetailSection title="Share">
      <div className="space-y-4 text-sm text-slate-700" data-testid="share-control">
        {!shared ? (
          <p>Only you can see this decision. A share link shows it read-only to anyone who has the link, without your email or other decisions.</p>
        ) : link ? (
          <div className="space-y-2">
            <label htmlFor={`${checkboxId}-link`} className="block font-medium text-slate-900">
              Anyone with this link can view this decision. Copy it now: it is shown only once.
            </label>
            <div className="flex flex-col gap-2 sm:flex-row">
              <input
                id={`${checkboxId}-link`}
                readOnly
                value={link}
                onFocus={(event) => event.currentTarget.select()}
                className="h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 font-mono text-xs text-slate-800 sm:flex-1"
                data-testid="share-link"
              />
              <Button variant="secondary" onClick={() => void copy()}>
                <Copy className="size-4" aria-hidden />
                Copy link
              </Button>
            </div>
          </div>
        ) : (
          <p data-testid="share-state">
            Shared since {formatLocalTime(status.data?.created_at)}, {status.data?.include_images ? "with its images" : "without images"}. The link was shown when it was made; make a new one to copy it again (the old one then stops working).
          </p>
        )}
        {shared && link ? <p>{status.data?.include_images ? "Its images are included." : "Its images are not included."}</p> : null}
        {imageCount > 0 ? (
          <label htmlFor={checkboxId} className="flex items-center gap-2">
            <input id={checkboxId} type="checkbox" className="size-4" checked={includeImages} onChange={(event) => setIncludeImages(event.target.checked)} />
            Include the {imageCount === 1 ? "image" : `${imageCount} images`} in {shared ? "a new link" : "the link"}
          </label>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button onClick={make} disabled={busy || status.isPending} variant={shared ? "secondary" : "primary"}>
            {shared ? <RefreshCw className="size-4" aria-hidden /> : <Link2 className="size-4" aria-hidden />}
            {create.isPending ? "Creating..." : shared ? "New link" : "Create share link"}
          </Button>
          {shared ? (
            <Button variant="danger" onClick={end} disabled={busy}>
              <Link2Off className="size-4" aria-hidden />
              {revoke.isPending ? "Revoking..." : "Revoke link"}
            </Button>
          ) : null}
        </div>
        {error ? (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </DetailSection>
  );
}
