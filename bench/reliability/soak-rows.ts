// Rows of the fault matrix whose figures come from the last `npm run soak`
// (bench/results/soak.json) rather than from a measurement run here.
import { num } from '../lib/report.js';
import type { SoakCheckId, SoakResult } from './soak-result.js';
import type { Figure, FaultRow, MeasureContext } from './table.js';

const NOT_RUN: Figure = { figure: 'no soak recorded yet: run `npm run soak`' };

/** A measurement that reads the soak's record instead of running anything. */
function fromSoak(figure: (soak: SoakResult) => string) {
  return ({ soak }: MeasureContext): Promise<Figure> =>
    Promise.resolve(
      soak === undefined ? NOT_RUN : { figure: figure(soak), data: { soak: soak.date } },
    );
}

const judged = (soak: SoakResult, id: SoakCheckId): string => {
  const check = soak.checks.find((c) => c.id === id);
  return check === undefined
    ? `${id}: not judged`
    : `${check.figure}${check.ok ? '' : ' (**failed**)'}`;
};

export const soakOutages: FaultRow[] = [
  {
    area: 'Outages and recovery',
    fault:
      'Soak: minutes of sustained MCP calls while every owner fails for a stretch, then one owner again',
    expected:
      'No call fails or waits on the owner; sets go stale, then `expired` (checks counted `unavailable`), and fresh again at the first retry after the owner is back.',
    provedBy: [{ soakCheck: 'no_call_failed' }, { soakCheck: 'every_call_reached_the_server' }],
    measure: fromSoak((s) => {
      const states = Object.keys(s.providerStatus.unavailableSeen).join(', ') || 'none';
      return (
        `${judged(s, 'no_call_failed')} calls failed; owner fetches ${JSON.stringify(s.fetchOutcomes)}; ` +
        `stale up to ${num(s.providerStatus.maxStaleAgeS, 1)} s; ${num(s.counted.unavailable)} checks \`unavailable\` ` +
        `(${states}); callTool p99 ${num(s.latencyMs.ownerDown.p99, 2)} ms with an owner down, ` +
        `${num(s.latencyMs.calm.p99, 2)} ms otherwise`
      );
    }),
  },
  {
    area: 'Outages and recovery',
    fault: 'Soak: heap over minutes of calls, faults and recoveries',
    expected: 'Flat after warm-up: nothing accumulates per call, per fetch or per failed export.',
    provedBy: [{ soakCheck: 'heap_flat' }, { soakCheck: 'no_unhandled_rejection' }],
    measure: fromSoak(
      (s) =>
        `${judged(s, 'heap_flat')} from ${s.heap.samples.length} samples after gc; ` +
        `${s.unhandledRejections.length} unhandled rejections`,
    ),
  },
];

export const soakTelemetry: FaultRow[] = [
  {
    area: 'Telemetry faults',
    fault: "Soak: the collector's OTLP endpoint goes away twice and comes back",
    expected:
      'Exports fail while it is away and calls do not notice; the counters are cumulative, so the first export after it is back restores every total; sampled log records sent while it was away are lost (best effort).',
    provedBy: [{ soakCheck: 'same_totals_downstream' }, { soakCheck: 'counters_add_up' }],
    measure: fromSoak(
      (s) =>
        `${s.endpoint === 'collector' ? 'real collector' : 'loopback sink'}: metric exports ${s.exports.metrics.ok} ok / ${s.exports.metrics.failed} failed; ` +
        `totals there ${num(s.atCollector.checked + s.atCollector.unavailable)} = in process ${num(s.counted.checked + s.counted.unavailable)} = ` +
        `values sent ${num(s.calls.checkedValues)}; log records ${num(s.logs.emitted)} emitted, ${num(s.logs.atCollector)} arrived; ` +
        `callTool p99 ${num(s.latencyMs.otlpDown.p99, 2)} ms while it was away`,
    ),
  },
];
