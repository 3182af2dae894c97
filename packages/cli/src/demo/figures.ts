import type { CheckMode } from '@argcheck/core';
import type { ShapeRow } from '../types.js';
import type { ToolTally } from './run-scenario.js';
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
  /** refund_order.reason_code in this stretch. */
  refund: { checks: number; outOfSet: number; outOfSetNormalised: number; outOfSetRate: number; normalisedRate: number };
  /** Checks that could not run, every argument. */
  unavailable: number;
  createTicket: { planned: number; succeeded: number };
  /** The oldest each set got during the stretch, in seconds. */
  maxAgeSeconds: Record<string, number>;
} // prettier-ignore

export interface ToolFigures extends ToolTally {
  /** Calls that reached the server's handlers; null if the server could not say. */
  received: number | null;
  /** `tool_argument_repair_started` for this tool. */
  repairsStarted: number;
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
  /** The series the backend receives: names and attribute sets, no values. */
  series: { name: string; attributes: Record<string, string> }[];
  /** Sampled log records emitted. */
  logRecords: number;
  /** With `--otlp`: how the exports to the endpoint went. */
  otlp?: { endpoint: string; metrics: ExportStats; logs: ExportStats };
}
