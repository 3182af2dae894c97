/**
 * Whether a repair worked (`tool_argument_repair_outcome`, reject mode). Each
 * argument a rejected call was refused for waits for the model's next call
 * of the same tool in the same run or conversation, and gets exactly one
 * outcome: `resolved` when that call carries a member (or a case or format
 * variant, rewritten to one), `repeated` when it is out of set again — that
 * call is rejected in its turn and waits for its own retry — and `abandoned`
 * when the run ends, or `windowMs` passes, first. So every rejected argument
 * counts once, and resolved / all outcomes is the first-retry success.
 *
 * Correlation, in order: the run (`run-scope.ts`: a framework run, or the
 * application's `inst.withAttribution` scope), the conversation id, the
 * call's scope (an MCP client, an agent), or nothing (one per tool).
 * Memory is bounded (`MAX_PENDING`, the oldest abandoned first); nothing
 * waits: time-outs are counted at the next call or collection.
 */
import type { Clock, Finding } from '@argcheck/core';
import { REPAIR_OUTCOME_SLOT } from '../telemetry/series.js';
import type { ArgumentSeries } from '../telemetry/series.js';
import type { RepairOutcome } from '../semconv.js';
import { isRun } from './run-scope.js';
import type { Run } from './run-scope.js';

/** Rejected arguments waiting for their retry, at most (over every run and tool). */
export const MAX_PENDING = 10_000;

interface Pending {
  readonly series: ArgumentSeries;
  readonly at: number;
}

/** Per correlation key: per tool, per argument path. */
type ByTool = Map<string, Map<string, Pending>>;

export interface RepairOutcomes {
  /** No argument is waiting: a call need not look anything up. */
  readonly idle: boolean;
  /** Settle what waits on `tool` under `key` against the call's findings. */
  settle(key: unknown, tool: string, findings: readonly Finding[]): void;
  /** A rejected call: its out-of-set arguments wait for their retry. */
  rejected(
    key: unknown,
    tool: string,
    findings: readonly Finding[],
    seriesOf: (finding: Finding) => ArgumentSeries | undefined,
  ): void;
  /** Count what has waited longer than the window as abandoned. */
  sweep(): void;
  /** Count everything still waiting as abandoned (the configuration is replaced). */
  close(): void;
}

function bump(series: ArgumentSeries, outcome: RepairOutcome): void {
  const slot = REPAIR_OUTCOME_SLOT[outcome];
  series.counts[slot] = (series.counts[slot] as number) + 1;
}

export function createRepairOutcomes(options: {
  windowMs: number;
  clock: Pick<Clock, 'now'>;
}): RepairOutcomes {
  const { windowMs, clock } = options;
  const waiting = new Map<unknown, ByTool>();
  let size = 0;
  let nextSweep = Infinity;

  const abandonKey = (key: unknown): void => {
    const byTool = waiting.get(key);
    if (byTool === undefined) return;
    waiting.delete(key);
    for (const byArgument of byTool.values()) {
      for (const pending of byArgument.values()) {
        bump(pending.series, 'abandoned');
        size--;
      }
    }
  };
  const onRunEnd = (run: Run): void => abandonKey(run);

  const sweep = (): void => {
    const now = clock.now();
    if (now < nextSweep) return;
    nextSweep = Infinity;
    for (const [key, byTool] of waiting) {
      for (const [tool, byArgument] of byTool) {
        for (const [argument, pending] of byArgument) {
          if (now - pending.at >= windowMs) {
            bump(pending.series, 'abandoned');
            byArgument.delete(argument);
            size--;
          } else {
            nextSweep = Math.min(nextSweep, pending.at + windowMs);
          }
        }
        if (byArgument.size === 0) byTool.delete(tool);
      }
      if (byTool.size === 0) waiting.delete(key);
    }
  };

  /** Make room for one: the oldest key's arguments are abandoned. */
  const evict = (): void => {
    const oldest = waiting.keys().next();
    if (!oldest.done) abandonKey(oldest.value);
  };

  return {
    get idle() {
      return size === 0;
    },
    settle(key, tool, findings) {
      if (size === 0) return;
      sweep();
      const byTool = waiting.get(key);
      const byArgument = byTool?.get(tool);
      if (byTool === undefined || byArgument === undefined) return;
      for (const finding of findings) {
        if (finding.status !== 'checked') continue;
        const pending = byArgument.get(finding.argument);
        if (pending === undefined) continue;
        byArgument.delete(finding.argument);
        size--;
        // Counted under the rejected call's series (its attribution), whatever the retry's.
        bump(pending.series, finding.inSetNormalised ? 'resolved' : 'repeated');
      }
      if (byArgument.size === 0) byTool.delete(tool);
      if (byTool.size === 0) waiting.delete(key);
    },
    rejected(key, tool, findings, seriesOf) {
      const now = clock.now();
      for (const finding of findings) {
        if (finding.status !== 'checked' || finding.inSetNormalised) continue;
        const series = seriesOf(finding);
        if (series === undefined) continue;
        while (size >= MAX_PENDING) evict();
        let byTool = waiting.get(key);
        if (byTool === undefined) {
          byTool = new Map<string, Map<string, Pending>>();
          waiting.set(key, byTool);
          if (isRun(key)) key.onEnd(onRunEnd);
        }
        let byArgument = byTool.get(tool);
        if (byArgument === undefined) byTool.set(tool, (byArgument = new Map<string, Pending>()));
        const before = byArgument.get(finding.argument);
        if (before !== undefined) {
          // The same call rejected twice with no retry between (a duplicate): the earlier gave up.
          bump(before.series, 'abandoned');
          size--;
        }
        byArgument.set(finding.argument, { series, at: now });
        size++;
        nextSweep = Math.min(nextSweep, now + windowMs);
      }
      // A run that ended already (its rejection came late) has no retry coming.
      if (isRun(key) && key.ended) abandonKey(key);
    },
    sweep,
    close() {
      for (const key of [...waiting.keys()]) {
        if (isRun(key)) key.offEnd(onRunEnd);
        abandonKey(key);
      }
    },
  };
}
