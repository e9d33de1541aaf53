/**
 * The one priority of every aggregate job. BullMQ puts a parent whose children are done at the end
 * of its wait list that workers take from next, so without a priority the newest ready decisions
 * go first and, under load, the oldest wait behind them; prioritized jobs of one priority leave in
 * the order they became ready.
 */
const AGGREGATE_PRIORITY = 1;

/**
 * Which traffic a decision belongs to: `interactive` (a person or a client waiting on the answer)
 * or `batch` (a line of a /v1/batches file, run in the background).
 */
export type DecisionLane = "interactive" | "batch";

/**
 * BullMQ takes a queue's un-prioritized jobs (its wait list) before any prioritized one, and
 * prioritized ones lowest number first (see fetchNextJob.lua: RPOPLPUSH on the wait list, the
 * prioritized set only when it is empty). So interactive votes carry no priority and a batch's
 * votes carry one: a waiting batch vote is taken only once no interactive vote waits. A batch's
 * aggregate job goes after every interactive one likewise (interactive ones have priority 1).
 */
export const LANE_PRIORITIES: Readonly<Record<DecisionLane, { aggregate: number; vote: number | undefined }>> = {
  interactive: { aggregate: AGGREGATE_PRIORITY, vote: undefined },
  batch: { aggregate: AGGREGATE_PRIORITY + 1, vote: 1 },
};

/** The priority of the later calls (gossip rounds, the judge) of a decision whose aggregate job has `aggregatePriority`. */
export function votePriorityOf(aggregatePriority: number | undefined): number | undefined {
  return aggregatePriority === LANE_PRIORITIES.batch.aggregate ? LANE_PRIORITIES.batch.vote : LANE_PRIORITIES.interactive.vote;
}
