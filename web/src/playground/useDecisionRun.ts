import { useMutation } from "@tanstack/react-query";
import { useCallback, useReducer, useRef } from "react";
import type { DecisionResponse } from "@sd/contracts";
import { useAuthorization } from "../auth/session-context";
import { toast } from "../ui/toast";
import { decisionErrorMessage } from "./decision-errors";
import { decisionRunReducer, IDLE_RUN, type DecisionRun, type ModelInfo } from "./decision-run";
import { PLAYGROUND_TEXT } from "./messages";
import { requestDecision, type DecisionRequestBody } from "./playground-api";
import { newRequestId } from "./request-id";
import { useDecisionSocket } from "./useDecisionSocket";

export interface DecisionInput {
  question: string;
  categories: readonly string[];
  images: readonly string[];
}

/**
 * Asks the models one question: rows go pending, follow each model's live vote, and settle
 * with the final decision from whichever comes first, the socket's final event or the HTTP answer.
 */
export function useDecisionRun(models: readonly ModelInfo[]): DecisionRun & { submit(input: DecisionInput): Promise<void> } {
  const [run, dispatch] = useReducer(decisionRunReducer, IDLE_RUN);
  /** The request in flight; null once it has settled, so the other channel's answer is ignored. */
  const active = useRef<string | null>(null);

  const finish = useCallback((requestId: string, response: DecisionResponse) => {
    if (active.current !== requestId) return;
    active.current = null;
    dispatch({ type: "complete", response });
    toast.success(PLAYGROUND_TEXT.decisionCompleteTitle, `${PLAYGROUND_TEXT.finalDecisionPrefix}${response.final_decision ?? PLAYGROUND_TEXT.noDecision}`);
  }, []);

  const socket = useDecisionSocket({
    onVote: (event) => {
      if (event.request_id === active.current) dispatch({ type: "vote", event });
    },
    onFinal: ({ request_id, ...response }) => finish(request_id, response),
  });

  const authorization = useAuthorization();
  // The POST is a TanStack Query mutation; the run (rows, result) is the reducer's, fed by both channels.
  const { mutateAsync: postQuestion } = useMutation({ mutationFn: (body: DecisionRequestBody) => requestDecision(body, authorization) });
  const submit = useCallback(
    async ({ question, categories, images }: DecisionInput) => {
      const requestId = newRequestId();
      active.current = requestId;
      dispatch({ type: "start", providers: models.map((m) => m.id) });
      // Join the request's room before posting, so no vote event is missed.
      await socket.follow(requestId);
      try {
        finish(requestId, await postQuestion({ question: question.trim(), categories, images, request_id: requestId }));
      } catch (error) {
        if (active.current !== requestId) return; // already settled by the final event
        active.current = null;
        dispatch({ type: "fail" });
        toast.error(PLAYGROUND_TEXT.decisionErrorTitle, decisionErrorMessage(error));
      } finally {
        if (active.current === null) socket.stop();
      }
    },
    [models, socket, finish, postQuestion],
  );

  return { ...run, submit };
}
