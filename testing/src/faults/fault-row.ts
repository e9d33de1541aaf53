/** One line of the fault table: what a drill did to how many decisions, and what became of them. */
export interface FaultRow {
  scenario: string;
  decisions: number;
  /** Decisions accepted but never stored (for a Redis without persistence: neither answered 200 nor told they were lost). */
  lost: number;
  /** Decisions stored twice, or with a vote counted twice. */
  doubled: number;
  /** The longest a client waited for its answer (for a crashed gateway: for its decision to be stored). */
  maxWaitMs: number;
  /** The wait the product promises for this drill, or null when it promises none. */
  boundMs: number | null;
  /** HTTP answers by status ("none": the connection failed). */
  statuses: Record<string, number>;
  /** Decisions stored with fewer votes than the models that answered (not lost, but not whole). */
  shortOfVotes: number;
  /** Exit code of the drill's gateway process once asked to stop (null: it had to be killed). */
  exitCode?: number | null;
  /** Status of a new decision once the fault is over (null: no answer). */
  afterStatus?: number | null;
  /** What a request on a new connection got while the process drained ("refused", or its status). */
  lateRequest?: string;
  /** Whether the decision of that late request was stored (it was accepted after all). */
  lateStored?: boolean;
  /** Worker processes the killed all-in-one process had forked that were still running after it (they should exit by themselves). */
  orphans?: number;
  note?: string;
}

/** Redis memory around anonymous decisions with three ~9.9 MB images each (issue 11, defect 2). */
export interface MemoryRow {
  decisions: number;
  /** used_memory before the first request, at its peak, and once every decision was answered, in bytes. */
  beforeBytes: number;
  peakBytes: number;
  afterBytes: number;
  keysLeft: number;
  statuses: Record<string, number>;
  /** What the answers other than 200 said, e.g. `503 Smart Decision is temporarily unavailable...`. */
  note?: string;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");

export function faultTable(rows: readonly FaultRow[]): string {
  const lines = [
    "| scenario | decisions | lost | doubled | max wait | bound | answers | short of a vote | note |",
    "|---|---:|---:|---:|---:|---:|---|---:|---|",
  ];
  for (const row of rows) {
    const bound = row.boundMs === null ? "–" : `${(row.boundMs / 1000).toFixed(1)} s`;
    lines.push(
      `| ${row.scenario} | ${row.decisions} | ${row.lost} | ${row.doubled} | ${(row.maxWaitMs / 1000).toFixed(1)} s | ${bound} | ${statusText(row.statuses)} | ${row.shortOfVotes} | ${row.note ?? ""} |`,
    );
  }
  return lines.join("\n");
}

export function memoryTable(row: MemoryRow): string {
  return [
    "| decisions | Redis memory before | peak | after | keys left | answers | note |",
    "|---:|---:|---:|---:|---:|---|---|",
    `| ${row.decisions} | ${mb(row.beforeBytes)} | ${mb(row.peakBytes)} | ${mb(row.afterBytes)} | ${row.keysLeft} | ${statusText(row.statuses)} | ${row.note ?? ""} |`,
  ].join("\n");
}
