import type { CheckMode, ValueSetStatus } from '@argcheck/core';
import type {
  ArgumentFigures,
  DefinitionFigures,
  DemoFigures,
  PhaseFigures,
  SplitFigures,
  ToolFigures,
} from './figures.js';
import type { RepairExample, ToolTally } from './run-scenario.js';
import type { ScenarioTiming } from './scenario.js';
import { argumentCounts, rate, SHAPES, type SplitCounts } from './telemetry/argument-figures.js';
import type { ToolDefinitionRecord } from './telemetry/log-tap.js';
import {
  ATTR_MODEL,
  ATTR_TOOL_DEFINITION,
  MISMATCH,
  REPAIR_STARTED,
} from './telemetry/metric-names.js';
import { sumOf, type Snapshot } from './telemetry/snapshot.js';
import { CHECKED, TOOLS, type ToolName } from './tools.js';
import { LISTINGS, type ListingName } from './traffic.js';

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
  definitions: readonly ToolDefinitionRecord[];
  repairExamples: readonly RepairExample[];
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

/** Every distinct name and attribute set in the collection, sorted; a counter still at 0 is `atZero`. */
export function seriesOf(snapshot: Snapshot): DemoFigures['series'] {
  const seen = new Map<string, DemoFigures['series'][number]>();
  for (const point of snapshot.points) {
    const key = JSON.stringify([point.name, point.attributes]);
    if (seen.has(key)) continue;
    const atZero = point.kind !== 'gauge' && point.value === 0;
    seen.set(key, { name: point.name, attributes: { ...point.attributes }, atZero });
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

/**
 * The first stretch whose refund checks split into two or more values of
 * `attribute`, with the aggregate beside it and the stretch before's.
 */
export function sideBySide(
  phases: readonly PhaseFigures[],
  attribute: typeof ATTR_MODEL | typeof ATTR_TOOL_DEFINITION,
): SplitFigures | undefined {
  const rowsOf = (p: PhaseFigures): SplitCounts[] =>
    attribute === ATTR_MODEL ? p.refund.byModel : p.refund.byDefinition;
  const at = phases.findIndex((p) => rowsOf(p).length > 1);
  const phase = phases[at];
  if (phase === undefined) return undefined;
  const before = phases[at - 1];
  const { checks, outOfSet, outOfSetRate } = phase.refund;
  return {
    phase: phase.name,
    label: phase.label,
    attribute,
    rows: rowsOf(phase),
    aggregate: { checks, outOfSet, outOfSetRate },
    ...(before === undefined ? {} : { before: before.refund.outOfSetRate }),
  };
}

/** Each definition record, with the demo listing whose refund_order description it is. */
function definitionsOf(records: readonly ToolDefinitionRecord[]): DefinitionFigures[] {
  return records.map((record) => {
    const listing = (Object.keys(LISTINGS) as ListingName[]).find(
      (name) =>
        record.tool === 'refund_order' && LISTINGS[name].refundDescription === record.description,
    );
    return listing === undefined ? { ...record } : { ...record, listing };
  });
}

export function buildFigures(input: FigureInputs): DemoFigures {
  const tools = Object.fromEntries(
    TOOLS.map((tool): [string, ToolFigures] => {
      const tally = input.tallies[tool];
      const received = input.received === undefined ? null : (input.received[tool] ?? 0);
      const repairsStarted = sumOf(input.snapshot, REPAIR_STARTED, { tool });
      return [
        tool,
        {
          ...tally,
          received,
          repairsStarted,
          refusedByServer: received === null ? null : tally.attempts - received - repairsStarted,
          notString: sumOf(input.snapshot, MISMATCH, { tool, shape: 'not_string' }),
        },
      ];
    }),
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
    sideBySide: {
      rollout: sideBySide(input.phases, ATTR_TOOL_DEFINITION),
      canary: sideBySide(input.phases, ATTR_MODEL),
    },
    definitions: definitionsOf(input.definitions),
    repairExamples: [...input.repairExamples],
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
