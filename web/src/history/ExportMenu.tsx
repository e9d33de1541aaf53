import { EXPORT_FORMATS, type ExportFormat } from "@sd/contracts";
import { ENDPOINTS, endpointPath } from "@sd/contracts/endpoints";
import { ChevronDown, Download, LoaderCircle } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { ApiError } from "../api/client";
import { downloadAsUser } from "../api/download";
import { useAuthorization } from "../auth/session-context";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { historyQuery, type HistoryFilters } from "./history-filters";

const ENDPOINT_OF = { csv: ENDPOINTS.exportMyDecisionsCsv, json: ENDPOINTS.exportMyDecisionsJson } as const;
const LABELS: Record<ExportFormat, string> = { csv: "CSV (spreadsheet)", json: "JSON" };

/** The export's query: the dashboard's filters, without its paging (the export is every match). */
function exportQuery(filters: HistoryFilters): Record<string, string> {
  const { limit: _limit, offset: _offset, ...query } = historyQuery(filters, 0);
  return query;
}

/** Downloads the export as the signed-in user. */
function download(format: ExportFormat, filters: HistoryFilters, session: ReturnType<typeof useAuthorization>): Promise<void> {
  return downloadAsUser(endpointPath(ENDPOINT_OF[format], {}, exportQuery(filters)), session, `decisions.${format}`);
}

/** The dashboard's Export control: the decisions the current filters show, all of them, as CSV or JSON. */
export function ExportMenu({ filters }: { filters: HistoryFilters }) {
  const session = useAuthorization();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const run = async (format: ExportFormat) => {
    setOpen(false);
    setBusy(format);
    try {
      await download(format, filters, session);
    } catch (error) {
      toast.error("Export failed", error instanceof ApiError ? error.message : "The export could not be downloaded. Please try again.");
    } finally {
      setBusy(null);
    }
  };

  return (
    <div ref={root} className="relative">
      <Button variant="secondary" aria-haspopup="menu" aria-expanded={open} aria-controls={menuId} disabled={busy !== null} aria-busy={busy !== null} onClick={() => setOpen((shown) => !shown)}>
        {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <Download className="size-4" aria-hidden />}
        {busy ? "Exporting..." : "Export"}
        <ChevronDown className="size-4" aria-hidden />
      </Button>
      {/* On a phone the menu is a sheet at the bottom of the screen, wherever the button wrapped to. */}
      {open ? (
        <div id={menuId} role="menu" aria-label="Export the filtered history" className="fixed inset-x-4 bottom-4 z-20 rounded-lg border border-slate-200 bg-white p-1 shadow-lg sm:absolute sm:inset-x-auto sm:right-0 sm:bottom-auto sm:mt-2 sm:w-56">
          <p className="px-3 py-2 text-xs text-slate-500">Every decision the filters match</p>
          {EXPORT_FORMATS.map((format) => (
            <button key={format} type="button" role="menuitem" className="block w-full rounded-md px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100" onClick={() => void run(format)}>
              {LABELS[format]}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
