import type { CheckMode } from '@argcheck/core';
import type { ShapeRow } from '../types.js';
import type { RepairExample, ToolTally } from './run-scenario.js';
import type { SplitCounts } from './telemetry/argument-figures.js';
import type { ExportStats } from './telemetry/export-stats.js';

/** One checked argument over the whole run, from the counters the backend receives. */
export interface ArgumentFigures {
  tool: string;
  argument: string;
  set: string;
  /** Checks that ran. */
  checks: number;
  outOfSet: number;
  outOfSetNormalised: number;
  /** Checks that could not run (the call went through unchecked). */
  unavailable: number;
  rewritten: number;
  /** outOfSet / checks. */
  outOfSetRate: number;
  /** outOfSetNormalised / checks. */
  normalisedRate: number;
  /** outOfSetRate − normalisedRate. */
  formattingTax: number;
  /** The mismatch shapes: shares of mismatches sum to 1; shares of calls sum to outOfSetRate. */
  shapes: ShapeRow[];
}

/** One stretch of the story, between two collections. */
export interface PhaseFigures {
  name: string;
  label: string;
  /** Calls the agent planned in this stretch. */
  calls: number;
  seconds: number;
  /**
   * refund_order.reason_code in this stretch; split by `gen_ai.request.model`
   * and by `tool_definition` as the series carry them.
   */
  refund: { checks: number; outOfSet: number; outOfSetNormalised: number; outOfSetRate: number; normalisedRate: number; byModel: SplitCounts[]; byDefinition: SplitCounts[] };
  /** Checks that could not run, every argument. */
  unavailable: number;
  createTicket: { planned: number; succeeded: number };
  /** The oldest each set got during the stretch, in seconds. */
  maxAgeSeconds: Record<string, number>;
} // prettier-ignore

export interface ToolFigures extends ToolTally {
  /** Calls that reached the servers' handlers; null if a server could not say. */
  received: number | null;
  /** `tool_argument_repair_started` for this tool: calls argcheck refused, never sent. */
  repairsStarted: number;
  /**
   * Calls sent to a server that its own input schema refused before the
   * handler ran (attempts − received − repairsStarted); null with `received`.
   */
  refusedByServer: number | null;
  /** `tool_argument_mismatch{shape="not_string"}` for this tool: values of the wrong type. */
  notString: number;
}

/** What a `tool_definition` value stands for, from its `tool_argument_tool_definition` log record. */
export interface DefinitionFigures {
  tool: string;
  toolDefinition: string;
  description: string;
  /** Which of the demo's server listings has this description, if one does. */
  listing?: string;
}

/** One stretch's refund_order.reason_code, split by one attribute, beside the aggregate. */
export interface SplitFigures {
  phase: string;
  label: string;
  /** `gen_ai.request.model` or `tool_definition`. */
  attribute: string;
  rows: SplitCounts[];
  aggregate: { checks: number; outOfSet: number; outOfSetRate: number };
  /** The aggregate rate of the stretch before, when there was one. */
  before?: number;
}

export interface ValueSetFigures {
  name: string;
  state: string;
  size: number;
  ageSeconds?: number;
  /** The owner's answers by HTTP status. */
  ownerAnswers: Record<string, number>;
}

/** `argcheck demo --json`: the final figures. */
export interface DemoFigures {
  seed: number;
  mode: CheckMode;
  /** The run's planned and actual length, in milliseconds. */
  durationMs: { planned: number; actual: number };
  /** The provider's TTL and stale allowance, scaled to the run, in milliseconds. */
  ttlMs: number;
  maxStaleMs: number;
  calls: { planned: number; made: number };
  tools: Record<string, ToolFigures>;
  arguments: ArgumentFigures[];
  phases: PhaseFigures[];
  valueSets: ValueSetFigures[];
  /**
   * The two changes the story rolls out to part of the traffic, each read on
   * its own line: the description rewrite on half the servers (by
   * `tool_definition`) and the provider canary (by `gen_ai.request.model`).
   */
  sideBySide: { rollout?: SplitFigures; canary?: SplitFigures };
  /** The `tool_definition` values seen, and the description each stands for. */
  definitions: DefinitionFigures[];
  /** `reject` mode: the first refused call of each tool, its repair message and the retry. */
  repairExamples: RepairExample[];
  /**
   * The series the backend receives: names and attribute sets, no emitted
   * value; `atZero` for a counter that has not counted yet (exported from
   * start-up, docs/telemetry.md "What exists at start-up").
   */
  series: { name: string; attributes: Record<string, string>; atZero: boolean }[];
  /** Sampled log records emitted. */
  logRecords: number;
  /** With `--otlp`: how the exports to the endpoint went. */
  otlp?: { endpoint: string; metrics: ExportStats; logs: ExportStats };
}
