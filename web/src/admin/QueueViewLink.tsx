import { ExternalLink, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { useAuthorization } from "../auth/session-context";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import { openQueuesSession } from "./admin-api";

/**
 * Opens the operators' queue view. The board is a server page that cannot read the app's bearer
 * token, so the server first sets its short-lived session cookie; then the browser goes there.
 */
export function QueueViewLink() {
  const session = useAuthorization();
  const [opening, setOpening] = useState(false);
  const open = async () => {
    setOpening(true);
    try {
      const url = await openQueuesSession(session);
      window.location.assign(url);
    } catch (error) {
      console.error("Admin dashboard: queue view session failed", error);
      toast.error("Error", "Could not open the queue view.");
      setOpening(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" onClick={() => void open()} disabled={opening}>
      {opening ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <ExternalLink className="size-4" aria-hidden />}
      Open queue view
    </Button>
  );
}
