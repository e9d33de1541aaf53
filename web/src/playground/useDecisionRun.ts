import { useMutation } from "@tanstack/react-query";
import { useCallback, useReducer, useRef } from "react";
import type { DecisionResponse, EnsembleMode, EnsembleOptions } from "@sd/contracts";
import { useAuthorization } from "../auth/session-context";
import { toast } from "../ui/toast";
import { decisionErrorMessage } from "./decision-errors";
import { decisionRunReducer, IDLE_RUN, type DecisionRun } from "./decision-run";
import { PLAYGROUND_TEXT } from "./messages";
import { requestDecision, type DecisionRequestBody } from "./playground-api";
import { decisionRefusal } from "./refusal";
import { newRequestId } from "./request-id";
import { useDecisionSocket } from "./useDecisionSocket";

export interface DecisionInput {
  question: string;
  categories: readonly string[];
  images: readonly string[];
}

/** Whom the decision asks and how, as the ensemble controls say. */
export interface EnsemblePlan {
  mode: EnsembleMode;
  /** The models asked, in row order. */
  panel: readonly string[];
  /** Judge mode: the judge; else null. */
  judge: string | null;
  /** The request's ensemble options (only those changed from the defaults). */
  options: EnsembleOptions;
}

/**
 * Asks the models one question: rows go pending, follow each model's live vote, and settle
 * with the final decision from whichever comes first, the socket's final event or the HTTP answer.
 * The request stays followed after that (until the next one, or a failure), so a live event the
 * answer overtook still corrects the row the answer had to guess (e.g. a vote early quorum skipped).
 */
export function useDecisionRun(): DecisionRun & { submit(input: DecisionInput, plan: EnsemblePlan): Promise<void> } {
  const [run, dispatch] = useReducer(decisionRunReducer, IDLE_RUN);
  /** The request in flight; null once it has settled, so the other channel's answer is ignored. */
  const active = useRef<string | null>(null);
  /** The newest request, whose late live events are still passed on after it settled. */
  const latest = useRef<string | null>(null);

  const finish = useCallback((requestId: string, response: DecisionResponse) => {
    if (active.current !== requestId) return;
    active.current = null;
    dispatch({ type: "complete", response });
    toast.success(PLAYGROUND_TEXT.decisionCompleteTitle, `${PLAYGROUND_TEXT.finalDecisionPrefix}${response.final_decision ?? PLAYGROUND_TEXT.noDecision}`);
  }, []);

  const socket = useDecisionSocket({
    onVote: (event) => {
      if (event.request_id === latest.current) dispatch({ type: "vote", event });
    },
    onFinal: ({ request_id, ...response }) => finish(request_id, response),
  });

  const authorization = useAuthorization();
  // The POST is a TanStack Query mutation; the run (rows, result) is the reducer's, fed by both channels.
  const { mutateAsync: postQuestion } = useMutation({ mutationFn: (body: DecisionRequestBody) => requestDecision(body, authorization) });
  const submit = useCallback(
    async ({ question, categories, images }: DecisionInput, plan: EnsemblePlan) => {
      const requestId = newRequestId();
      active.current = requestId;
      latest.current = requestId;
      dispatch({ type: "start", providers: plan.panel, mode: plan.mode, judge: plan.judge });
      // Join the request's room before posting, so no vote event is missed.
      await socket.follow(requestId);
      try {
        finish(requestId, await postQuestion({ question: question.trim(), categories, images, request_id: requestId, ensemble: plan.options }));
      } catch (error) {
        if (active.current !== requestId) return; // already settled by the final event
        active.current = null;
        latest.current = null;
        socket.stop();
        // A refusal (rate limit, busy) asked no model: a notice in the results says so, not failed rows and a toast.
        const refusal = decisionRefusal(error, Date.now());
        if (refusal) {
          dispatch({ type: "refuse", refusal });
          return;
        }
        dispatch({ type: "fail" });
        toast.error(PLAYGROUND_TEXT.decisionErrorTitle, decisionErrorMessage(error));
      }
    },
    [socket, finish, postQuestion],
  );

  return { ...run, submit };
}
