// Rows of the fault matrix whose figures come from the last `npm run soak`
// (bench/results/soak.json) rather than from a scenario run here.
import { num } from '../lib/report.mjs';

const NOT_RUN = { figure: 'no soak recorded yet: run `npm run soak`', ok: false, data: {} };

const check = (soak, name) => soak.checks.find((c) => c.name.startsWith(name));

export function soakRows(soak) {
  const from = (figure) => () =>
    Promise.resolve(soak === undefined ? NOT_RUN : { ...figure(soak), data: { soak: soak.date } });
  const proof = (name) => [['soak/run.mjs', `soak check: ${name}`, [name]]];
  return {
    outages: [
      {
        fault:
          'Soak: minutes of sustained MCP calls while every owner fails for a stretch, then one owner again',
        expected:
          'No call fails or waits on the owner; sets go stale, then `expired` (checks counted `unavailable`), and fresh again at the first retry after the owner is back.',
        proof: proof('no tool call failed'),
        run: from((s) => {
          const states = s.providerStatus.unavailableSeen;
          return {
            figure:
              `${s.calls.failed} of ${num(s.calls.made)} calls failed; owner fetches ${JSON.stringify(s.fetchOutcomes)}; ` +
              `stale up to ${num(s.providerStatus.maxStaleAgeS, 1)} s; ${num(s.counted.unavailable)} checks \`unavailable\` ` +
              `(${Object.keys(states).join(', ') || 'none'}); callTool p99 ${num(s.latencyMs.ownerDown.p99, 2)} ms with an owner down, ` +
              `${num(s.latencyMs.calm.p99, 2)} ms otherwise`,
            ok: check(s, 'no tool call failed').ok,
          };
        }),
      },
      {
        fault: 'Soak: heap over minutes of calls, faults and recoveries',
        expected:
          'Flat after warm-up: nothing accumulates per call, per fetch or per failed export.',
        proof: proof('heap flat after warm-up'),
        run: from((s) => ({
          figure: `${check(s, 'heap flat').figure} from ${s.heap.samples.length} samples after gc; ${s.unhandledRejections.length} unhandled rejections`,
          ok: check(s, 'heap flat').ok && check(s, 'no unhandled rejection').ok,
        })),
      },
    ],
    telemetry: [
      {
        fault: "Soak: the collector's OTLP endpoint goes away twice and comes back",
        expected:
          'Exports fail while it is away and calls do not notice; the counters are cumulative, so the first export after it is back restores every total; sampled log records sent while it was away are lost (best effort).',
        proof: proof('the same totals at the'),
        run: from((s) => ({
          figure:
            `${s.endpoint === 'collector' ? 'real collector' : 'loopback sink'}: metric exports ${s.exports.metrics.ok} ok / ${s.exports.metrics.failed} failed; ` +
            `totals there ${num(s.atCollector.checked + s.atCollector.unavailable)} = in process ${num(s.counted.checked + s.counted.unavailable)} = ` +
            `values sent ${num(s.calls.checkedValues)}; log records ${num(s.logs.emitted)} emitted, ${num(s.logs.atCollector)} arrived; ` +
            `callTool p99 ${num(s.latencyMs.otlpDown.p99, 2)} ms while it was away`,
          ok: check(s, 'the same totals at the').ok && check(s, 'checked + unavailable').ok,
        })),
      },
    ],
  };
}
