import { useQuery } from "@tanstack/react-query";
import { checkAdmin } from "./auth-api";
import { useAuthorization, useSession } from "./session-context";

export interface AdminCheck {
  isAdmin: boolean;
  /** The check is still being asked (the answer is not known yet). */
  pending: boolean;
  /** Why the check failed (is_admin is then false). */
  error: string | null;
}

/**
 * GET /api/auth/admin-check for the signed-in user. It runs again whenever someone signs in
 * (nothing is cached once signed out); false when not signed in, expired, or when the check fails.
 */
export function useAdminCheck(): AdminCheck {
  const { authenticated, user } = useSession();
  const authorization = useAuthorization();
  const userId = authenticated && user ? user.id : null;
  const query = useQuery({
    queryKey: ["admin-check", userId],
    queryFn: () => checkAdmin(authorization),
    enabled: userId !== null,
    retry: false,
    gcTime: 0,
  });
  if (userId === null) return { isAdmin: false, pending: false, error: null };
  if (query.isPending) return { isAdmin: false, pending: true, error: null };
  if (query.error) return { isAdmin: false, pending: false, error: query.error.message };
  return { isAdmin: query.data.is_admin, pending: false, error: query.data.error ?? null };
}
