import type { ThroughputEvent } from "@sd/contracts";
import { finishedInWindow, formatCount, formatLatency, formatPerSecond, formatRate, sparklinePoints } from "./format";
import { Panel } from "./Panel";
import { QueueViewLink } from "./QueueViewLink";
import type { AdminThroughput } from "./useAdminThroughput";

const CHART = { width: 300, height: 80 };

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-lg font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

/** Decisions per second and decisions in flight over the kept samples, as two lines. */
function ThroughputChart({ samples }: { samples: ThroughputEvent[] }) {
  const perSecond = samples.map((sample) => sample.decisions_per_second);
  const inFlight = samples.map((sample) => sample.decisions_in_flight);
  // One scale for both lines, so they compare at a glance.
  const max = Math.max(1, ...perSecond, ...inFlight);
  const seconds = samples.length;
  return (
    <figure className="min-w-0">
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Decisions per second and in flight over the last ${seconds} seconds`}
        className="h-24 w-full rounded-lg bg-slate-50"
      >
        <polyline points={sparklinePoints(inFlight, CHART.width, CHART.height, max)} fill="none" stroke="#f59e0b" strokeWidth="2" vectorEffect="non-scaling-stroke" />
        <polyline points={sparklinePoints(perSecond, CHART.width, CHART.height, max)} fill="none" stroke="#4f46e5" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-0.5 w-4 bg-indigo-600" aria-hidden /> Decisions/s
        </span>
        <span className="inline-flex items-center gap-1">
          <span className="inline-block h-0.5 w-4 bg-amber-500" aria-hidden /> In flight
        </span>
        <span>peak {formatCount(max)}</span>
      </figcaption>
    </figure>
  );
}

/** Per provider over the last minute: votes, latency p50/p95 and error rate. */
function ProviderTable({ providers }: { providers: ThroughputEvent["providers"] }) {
  const rows = Object.entries(providers).sort(([a], [b]) => a.localeCompare(b));
  if (rows.length === 0) return <p className="text-sm text-slate-500">No provider has voted in the last minute.</p>;
  return (
    <div className="overflow-x-auto">
      <table aria-label="Providers in the last minute" className="w-full min-w-[20rem] text-left text-sm">
        <thead className="text-xs text-slate-600">
          <tr>
            <th className="py-1 pr-3 font-medium">Provider</th>
            <th className="py-1 pr-3 font-medium">Votes</th>
            <th className="py-1 pr-3 font-medium">p50</th>
            <th className="py-1 pr-3 font-medium">p95</th>
            <th className="py-1 font-medium">Errors</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([provider, figures]) => (
            <tr key={provider} className="border-t border-slate-100">
              <th scope="row" className="py-1 pr-3 font-medium text-slate-900">
                {provider}
              </th>
              <td className="py-1 pr-3">{formatCount(figures.votes)}</td>
              <td className="py-1 pr-3">{formatLatency(figures.latency_p50_ms)}</td>
              <td className="py-1 pr-3">{formatLatency(figures.latency_p95_ms)}</td>
              <td className="py-1">{formatRate(figures.error_rate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Beyond the specification: the admin room's live figures, one sample a second. */
export function LiveThroughputPanel({ live }: { live: AdminThroughput }) {
  const latest = live.samples.at(-1);
  const waiting = latest ? Object.values(latest.queue_waiting).reduce((sum, count) => sum + count, 0) : null;
  return (
    <Panel
      title="Live Throughput"
      className="lg:col-span-2"
      action={
        <div className="flex flex-wrap items-center gap-3">
          <span className={live.watching ? "inline-flex items-center gap-1.5 text-xs font-medium text-emerald-700" : "text-xs text-slate-500"}>
            {live.watching ? <span className="size-2 rounded-full bg-emerald-500" aria-hidden /> : null}
            {live.watching ? "Live" : "Connecting..."}
          </span>
          <QueueViewLink />
        </div>
      }
    >
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Figure label="Decisions/s" value={latest ? formatPerSecond(latest.decisions_per_second) : "—"} />
        <Figure label="In flight" value={latest ? formatCount(latest.decisions_in_flight) : "—"} />
        <Figure label={live.samples.length > 0 ? `Finished (last ${live.samples.length}s)` : "Finished"} value={latest ? formatCount(finishedInWindow(live.samples)) : "—"} />
        <Figure label="Jobs waiting" value={waiting === null ? "—" : formatCount(waiting)} />
      </dl>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <ThroughputChart samples={live.samples} />
        <ProviderTable providers={latest?.providers ?? {}} />
      </div>
    </Panel>
  );
}
