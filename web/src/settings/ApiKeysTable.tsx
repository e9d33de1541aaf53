import type { ApiKey } from "@sd/contracts";
import { ApiKeyRow } from "./ApiKeyRow";

/** The table's columns; the last one holds the actions. */
export const API_KEY_COLUMNS = ["KEY", "WORKSPACE", "CREATED BY", "CREATED AT", "LAST USED AT", "COST", "STATUS"] as const;

/**
 * The user's keys, newest first. The table is wider than a phone: it scrolls sideways inside its
 * own box (focusable, so keyboard users can scroll it too) while the actions column stays in view,
 * and the page itself never scrolls sideways. The box runs to the card's edges.
 */
export function ApiKeysTable({
  userId,
  keys,
  onDelete,
  onSetLimit,
}: {
  userId: string;
  keys: readonly ApiKey[];
  onDelete: (key: ApiKey) => void;
  onSetLimit: (key: ApiKey) => void;
}) {
  return (
    <>
      <p className="mb-2 text-xs text-slate-500 sm:hidden">Scroll the table sideways for every column.</p>
      {/* `relative` keeps absolutely placed content (the screen-reader-only header) inside the scrolling box. */}
      <div role="region" aria-label="API keys table" tabIndex={0} className="relative -mx-4 -mb-4 overflow-x-auto border-t border-slate-200 sm:-mx-6 sm:-mb-6">
        <table className="w-full min-w-[44rem] text-left text-sm">
          <thead className="bg-slate-50 text-xs font-semibold text-slate-500">
            <tr>
              {API_KEY_COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-2 py-3 whitespace-nowrap">
                  {column}
                </th>
              ))}
              <th scope="col" className="sticky right-0 bg-slate-50 px-2 py-3 text-right">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <ApiKeyRow key={key.id} userId={userId} apiKey={key} onDelete={onDelete} onSetLimit={onSetLimit} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
