import type { ShareCreated, ShareStatus } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAuthorization } from "../auth/session-context";
import { callEndpoint } from "../api/endpoint";

/** The owner's view of a decision's share link (GET/POST/DELETE /api/decisions/{id}/share), cached per user. */
const shareKey = (decisionId: string, userId: string) => ["decision-share", decisionId, userId] as const;

export function useDecisionShare(decisionId: string, userId: string) {
  const session = useAuthorization();
  const client = useQueryClient();
  const status = useQuery({
    queryKey: shareKey(decisionId, userId),
    queryFn: () => callEndpoint(ENDPOINTS.getDecisionShare, { params: { id: decisionId } }, session),
    retry: false,
  });
  const settle = (next: ShareStatus) => client.setQueryData(shareKey(decisionId, userId), next);
  const create = useMutation({
    mutationFn: (includeImages: boolean): Promise<ShareCreated> => callEndpoint(ENDPOINTS.shareDecision, { params: { id: decisionId }, body: { include_images: includeImages } }, session),
    onSuccess: settle,
  });
  const revoke = useMutation({
    mutationFn: () => callEndpoint(ENDPOINTS.revokeDecisionShare, { params: { id: decisionId } }, session),
    onSuccess: settle,
  });
  return { status, create, revoke };
}

/** The public page of a shared decision (GET /api/shared/{token}), for anyone with the link. */
export function useSharedDecision(token: string) {
  return useQuery({
    queryKey: ["shared-decision", token],
    queryFn: () => callEndpoint(ENDPOINTS.getSharedDecision, { params: { token } }),
    retry: false,
  });
}
