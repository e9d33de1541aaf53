import type { WebhookCreateInput, WebhookEndpoint, WebhookUpdate } from "@sd/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SignedOutError } from "../api/authorized";
import { useAuthorization } from "../auth/session-context";
import { createWebhook, deleteWebhook, fetchDeliveries, fetchWebhooks, resendDelivery, rotateWebhookSecret, sendTestEvent, updateWebhook, webhookKeys } from "./webhooks-api";

const retryUnlessSignedOut = (failures: number, error: Error) => !(error instanceof SignedOutError) && failures < 1;

/** The user's endpoints: reloaded when the page opens and when the user comes back (the delivery worker may have switched one off). */
export function useWebhooks(userId: string) {
  const session = useAuthorization();
  return useQuery({ queryKey: webhookKeys.list(userId), queryFn: () => fetchWebhooks(session), staleTime: 0, refetchOnWindowFocus: true, retry: retryUnlessSignedOut });
}

/** The list as cached, changed in place, then the server's own list (another tab may have changed it too). */
function useListCache(userId: string) {
  const client = useQueryClient();
  const key = webhookKeys.list(userId);
  return {
    put: (endpoint: WebhookEndpoint) =>
      client.setQueryData<WebhookEndpoint[]>(key, (list) => (list?.some((each) => each.id === endpoint.id) ? list.map((each) => (each.id === endpoint.id ? endpoint : each)) : [...(list ?? []), endpoint])),
    remove: (id: string) => client.setQueryData<WebhookEndpoint[]>(key, (list) => list?.filter((each) => each.id !== id)),
    resync: () => client.invalidateQueries({ queryKey: key }),
  };
}

/** Without the secret: the cache never holds it (only the dialog showing it once does). */
const withoutSecret = <E extends WebhookEndpoint>({ secret: _secret, message: _message, ...endpoint }: E & { secret?: string; message?: string }): WebhookEndpoint => endpoint;

export function useCreateWebhook(userId: string) {
  const session = useAuthorization();
  const cache = useListCache(userId);
  return useMutation({
    mutationFn: (body: WebhookCreateInput) => createWebhook(body, session),
    gcTime: 0,
    onSuccess: (created) => {
      cache.put(withoutSecret(created));
      void cache.resync();
    },
  });
}

export function useUpdateWebhook(userId: string) {
  const session = useAuthorization();
  const cache = useListCache(userId);
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: WebhookUpdate }) => updateWebhook(id, change, session),
    onSuccess: (updated) => {
      cache.put(updated);
      void cache.resync();
    },
  });
}

export function useDeleteWebhook(userId: string) {
  const session = useAuthorization();
  const cache = useListCache(userId);
  return useMutation({
    mutationFn: (id: string) => deleteWebhook(id, session),
    onSuccess: (_nothing, id) => {
      cache.remove(id);
      void cache.resync();
    },
  });
}

export function useRotateSecret(userId: string) {
  const session = useAuthorization();
  const cache = useListCache(userId);
  return useMutation({
    mutationFn: (id: string) => rotateWebhookSecret(id, session),
    gcTime: 0,
    onSuccess: (rotated) => cache.put(withoutSecret(rotated)),
  });
}

/** While a test event or a resend is queued, the log is asked again this often until the new row is there. */
const WAITING_REFETCH_MS = 1_000;

/** One endpoint's delivery log (newest first), asked only while shown; polled briefly while `waiting`. */
export function useDeliveries(userId: string, endpointId: string, limit: number, shown: boolean, waiting: boolean) {
  const session = useAuthorization();
  return useQuery({
    queryKey: [...webhookKeys.deliveries(userId, endpointId), limit],
    queryFn: () => fetchDeliveries(endpointId, limit, session),
    enabled: shown,
    staleTime: 0,
    placeholderData: (previous) => previous,
    retry: retryUnlessSignedOut,
    refetchInterval: waiting ? WAITING_REFETCH_MS : false,
  });
}

export function useSendTest(userId: string, endpointId: string) {
  const session = useAuthorization();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sendTestEvent(endpointId, session),
    onSuccess: () => void client.invalidateQueries({ queryKey: webhookKeys.deliveries(userId, endpointId) }),
  });
}

export function useResend(userId: string, endpointId: string) {
  const session = useAuthorization();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => resendDelivery(endpointId, deliveryId, session),
    onSuccess: () => void client.invalidateQueries({ queryKey: webhookKeys.deliveries(userId, endpointId) }),
  });
}
