import type { CheckMode, ValueSetStatus } from '@argcheck/core';
import type { ArgumentFigures, DemoFigures, PhaseFigures, ToolFigures } from './figures.js';
import type { ToolTally } from './run-scenario.js';
import type { ScenarioTiming } from './scenario.js';
import { argumentCounts, rate, SHAPES } from './telemetry/argument-figures.js';
import { REPAIR_STARTED } from './telemetry/metric-names.js';
import { sumOf, type Snapshot } from './telemetry/snapshot.js';
import { CHECKED, TOOLS, type ToolName } from './tools.js';

export interface FigureInputs {
  seed: number;
  mode: CheckMode;
  timing: ScenarioTiming;
  elapsedMs: number;
  callsMade: number;
  snapshot: Snapshot;
  tallies: Readonly<Record<ToolName, ToolTally>>;
  /** Undefined when the server could not be asked. */
  received: Readonly<Record<string, number>> | undefined;
  phases: PhaseFigures[];
  statuses: readonly ValueSetStatus[];
  ownerAnswers: Readonly<Record<string, Record<string, number>>>;
  logRecords: number;
}

export function argumentFigures(snapshot: Snapshot): ArgumentFigures[] {
  return CHECKED.map(({ tool, argument, set }) => {
    const c = argumentCounts(snapshot, { tool, argument });
    return {
      tool,
      argument,
      set,
      checks: c.checks,
      outOfSet: c.outOfSet,
      outOfSetNormalised: c.outOfSetNormalised,
      unavailable: c.unavailable,
      rewritten: c.rewritten,
      outOfSetRate: rate(c.outOfSet, c.checks),
      normalisedRate: rate(c.outOfSetNormalised, c.checks),
      formattingTax: rate(c.outOfSet - c.outOfSetNormalised, c.checks),
      shapes: SHAPES.filter((shape) => c.shapes[shape] > 0).map((shape) => ({
        shape,
        count: c.shapes[shape],
        shareOfMismatches: rate(c.shapes[shape], c.outOfSet),
        shareOfCalls: rate(c.shapes[shape], c.checks),
      })),
    };
  });
}

/** Every distinct name and attribute set in the collection, sorted. */
export function seriesOf(snapshot: Snapshot): DemoFigures['series'] {
  const seen = new Map<string, DemoFigures['series'][number]>();
  for (const point of snapshot.points) {
    const key = JSON.stringify([point.name, point.attributes]);
    if (!seen.has(key)) seen.set(key, { name: point.name, attributes: { ...point.attributes } });
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

export function buildFigures(input: FigureInputs): DemoFigures {
  const tools = Object.fromEntries(
    TOOLS.map((tool): [string, ToolFigures] => [
      tool,
      {
        ...input.tallies[tool],
        received: input.received === undefined ? null : (input.received[tool] ?? 0),
        repairsStarted: sumOf(input.snapshot, REPAIR_STARTED, { tool }),
      },
    ]),
  );
  return {
    seed: input.seed,
    mode: input.mode,
    durationMs: { planned: input.timing.durationMs, actual: Math.round(input.elapsedMs) },
    ttlMs: input.timing.ttlMs,
    maxStaleMs: input.timing.maxStaleMs,
    calls: { planned: input.timing.totalCalls, made: input.callsMade },
    tools,
    arguments: argumentFigures(input.snapshot),
    phases: input.phases,
    valueSets: input.statuses.map((s) => ({
      name: s.name,
      state: s.state,
      size: s.size,
      ...(s.ageSeconds === undefined ? {} : { ageSeconds: s.ageSeconds }),
      ownerAnswers: input.ownerAnswers[s.name] ?? {},
    })),
    series: seriesOf(input.snapshot),
    logRecords: input.logRecords,
  };
}
