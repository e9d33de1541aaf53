import { ExternalLink, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useAuthorization } from "../auth/session-context";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { openQueuesSession } from "./admin-api";

/**
 * A new tab, opened during the click (so no pop-up blocker takes it for an unasked window) and cut
 * from this page like `rel=noopener`; null when the browser refused one.
 */
function openBlankTab(): Window | null {
  const tab = window.open("", "_blank");
  if (tab) {
    tab.opener = null;
    tab.document.title = "Opening the queue view...";
  }
  return tab;
}

/**
 * Opens the operators' queue view in a new tab, so the dashboard stays where it was (the board has
 * no way back to it). The board is a server page that cannot read the app's bearer token, so the
 * server first sets its short-lived session cookie; then the new tab goes there.
 */
export function QueueViewLink() {
  const session = useAuthorization();
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    const tab = openBlankTab();
    try {
      const url = await openQueuesSession(session);
      // Pop-ups refused: the board in this tab still beats no board (Back returns here).
      if (tab) tab.location.replace(url);
      else window.location.assign(url);
    } catch (error) {
      tab?.close();
      console.error("Admin dashboard: queue view session failed", error);
      toast.error("Error", "Could not open the queue view.");
    } finally {
      setOpening(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void open()} disabled={opening}>
      {opening ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <ExternalLink className="size-4" aria-hidden />}
      Open queue view<span className="sr-only"> (opens in a new tab)</span>
    </Button>
  );
}
