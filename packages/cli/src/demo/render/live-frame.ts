import type { ArgumentCounts } from '../telemetry/argument-figures.js';

/** One checked argument on the live table: totals, and the last window for "now". */
export interface LiveRow {
  tool: string;
  argument: string;
  total: ArgumentCounts;
  window: ArgumentCounts;
}

export interface LiveValueSet {
  name: string;
  state: string;
  size: number;
  ageSeconds?: number;
  /** The owner's answers so far: `200×14 503×3`. */
  owner: string;
}

/** Everything one refresh of the live display shows. */
export interface LiveFrame {
  title: string;
  /** Share of the calls made, in [0, 1]. */
  progress: number;
  elapsedMs: number;
  durationMs: number;
  phaseLabel: string;
  tools: { tool: string; calls: number; repairs: number }[];
  rows: LiveRow[];
  /** Show the `rewritten` column (normalise and reject modes). */
  showRewritten: boolean;
  valueSets: LiveValueSet[];
}
