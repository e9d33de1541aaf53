import { describe, expect, it } from "vitest";
import * as keys from "./queue-keys";

/** Every key function's output for one set of arguments. */
function builtKeys(p: string) {
  return {
    waitingJobsKey: keys.waitingJobsKey(p, "vote-openai"),
    activeJobsKey: keys.activeJobsKey(p, "vote-openai"),
    allKeysPattern: keys.allKeysPattern(p),
    requestIdClaimKey: keys.requestIdClaimKey(p, "r1"),
    decisionOutcomesChannel: keys.decisionOutcomesChannel(p),
    decisionVotesChannel: keys.decisionVotesChannel(p),
    imageKeyBase: keys.imageKeyBase(p),
    imageKey: keys.imageKey(p, "d1", 2),
    quorumAnswersKey: keys.quorumAnswersKey(p, "d1"),
    quorumSettledKey: keys.quorumSettledKey(p, "d1"),
    quorumCancelChannel: keys.quorumCancelChannel(p),
    decisionCancelledKey: keys.decisionCancelledKey(p, "d1"),
    decisionCancelChannel: keys.decisionCancelChannel(p),
    tokenBudgetKey: keys.tokenBudgetKey(p, "openai"),
    throughputFinishedKey: keys.throughputFinishedKey(p, 1700000000),
    throughputVotesKey: keys.throughputVotesKey(p, "openai"),
    socketIoKey: keys.socketIoKey(p),
    rateLimitKeyPrefix: keys.rateLimitKeyPrefix(p, "auth"),
    byteRateLimitKeyPrefix: keys.byteRateLimitKeyPrefix(p),
    monthlyQuotaKey: keys.monthlyQuotaKey(p, "u1", "2099-03"),
    apiKeyUsageKey: keys.apiKeyUsageKey(p, "k1", "2099-03"),
    idempotencyKey: keys.idempotencyKey(p, "k1", "ab12"),
    endedSessionKey: keys.endedSessionKey(p, "s1"),
    googleStateKey: keys.googleStateKey(p, "st"),
    magicLinkKey: keys.magicLinkKey(p, "h1"),
    signedInFromKey: keys.signedInFromKey(p, "h2"),
  };
}

// A deployment keeps its data only while every key reads exactly as before: this pins each one.
describe("every Redis key of the product", () => {
  it("reads exactly as deployments already store it", () => {
    expect(builtKeys("sd")).toEqual({
      waitingJobsKey: "sd:vote-openai:wait",
      activeJobsKey: "sd:vote-openai:active",
      allKeysPattern: "sd:*",
      requestIdClaimKey: "sd:request:r1",
      decisionOutcomesChannel: "sd:decision-outcomes",
      decisionVotesChannel: "sd:decision-votes",
      imageKeyBase: "sd:images:",
      imageKey: "sd:images:d1:2",
      quorumAnswersKey: "sd:quorum:d1:answers",
      quorumSettledKey: "sd:quorum:d1:settled",
      quorumCancelChannel: "sd:quorum:cancel",
      decisionCancelledKey: "sd:cancelled:d1",
      decisionCancelChannel: "sd:decision-cancel",
      tokenBudgetKey: "sd:token-budget:openai",
      throughputFinishedKey: "sd:throughput:finished:1700000000",
      throughputVotesKey: "sd:throughput:votes:openai",
      socketIoKey: "sd:socket.io",
      rateLimitKeyPrefix: "sd:rate:auth:",
      byteRateLimitKeyPrefix: "sd:rate:bytes",
      monthlyQuotaKey: "sd:api-quota:u1:2099-03",
      apiKeyUsageKey: "sd:api-key-usage:k1:2099-03",
      idempotencyKey: "sd:idempotency:k1:ab12",
      endedSessionKey: "sd:auth:ended-session:s1",
      googleStateKey: "sd:auth:google-state:st",
      magicLinkKey: "sd:auth:magic-link:h1",
      signedInFromKey: "sd:auth:signed-in-from:h2",
    });
  });

  it("has a pinned value for every key function", () => {
    expect(Object.keys(keys).sort()).toEqual(Object.keys(builtKeys("sd")).sort());
  });
});
