import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { nowNs } from './stats.js';

const GC_KINDS: Record<number, string> = {
  1: 'minor',
  2: 'major',
  4: 'incremental',
  8: 'weak callbacks',
};

export interface Monitored {
  /** Wall time of the call. */
  ms: number;
  /** The longest event-loop delay seen while it ran (1 ms resolution). */
  stallMs: number;
  /** The longest garbage-collection pause V8 reported while it ran, and its kind. */
  gcMs: number;
  gcKind: string;
}

/**
 * Run `fn` with an event-loop delay monitor (1 ms resolution): its longest
 * stall in ms, and the longest garbage-collection pause while it ran (V8's
 * own pause, from `gc` performance entries), with its kind.
 */
export async function monitored(fn: () => Promise<unknown>): Promise<Monitored> {
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // The histogram records nothing until its timer has ticked once.
  await sleep(20);
  const start = performance.now();
  const t0 = nowNs();
  await fn();
  const ms = (nowNs() - t0) / 1e6;
  const end = performance.now();
  await sleep(20); // the delay that ended with `fn` is recorded on the next tick
  histogram.disable();
  observer.disconnect();
  const during = pauses.filter((e) => e.startTime >= start && e.startTime <= end);
  const longest = during.reduce<PerformanceEntry | undefined>(
    (a, e) => (a === undefined || e.duration > a.duration ? e : a),
    undefined,
  );
  const kind = (longest as { detail?: { kind?: number } } | undefined)?.detail?.kind;
  return {
    ms,
    stallMs: histogram.max / 1e6,
    gcMs: longest?.duration ?? 0,
    gcKind: longest === undefined ? 'none' : (GC_KINDS[kind ?? 0] ?? 'other'),
  };
}
