import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "../ui/toast";

/** Until sign-in is wired, the callback can only report what it was given and go home. */
export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    if (params.get("error")) toast.error("Authentication Error", "Authentication was cancelled or failed.");
    else toast.error("Invalid Request", "No valid authentication parameters found.");
    void navigate("/", { replace: true });
  }, [params, navigate]);
  return <p className="p-8 text-center text-slate-500">Signing you in...</p>;
}
