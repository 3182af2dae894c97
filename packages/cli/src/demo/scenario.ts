import type { AgentProfile } from './agent.js';

/** What the owners do when a phase starts. */
export type OwnerEvent = 'add_seventh_code' | 'identity_down' | 'identity_up';

export interface Phase {
  name: string;
  /** What happened, for the progress line and the story table. */
  label: string;
  /** Where the phase starts, as a fraction of the run's calls. */
  from: number;
  profile: AgentProfile;
  event?: OwnerEvent;
}

const TOOLS = { refund_order: 45, create_ticket: 35, transfer_stock: 20 };

/**
 * Mismatch shapes of refund reason codes before the rewrite: case and format
 * are 27 % of them, the share normalisation can repair (6.2 % → 4.5 %).
 */
const BASELINE_REASON_SHAPES = {
  case: 15,
  format: 12,
  alias: 18,
  near_miss: 12,
  invented: 38,
  not_string: 5,
};
/** The new provider lowercases more, so the formatting share grows. */
const MIGRATED_REASON_SHAPES = {
  case: 22,
  format: 13,
  alias: 15,
  near_miss: 12,
  invented: 35,
  not_string: 3,
};

const OTHER_SHAPES = {
  component: { case: 20, format: 15, near_miss: 35, invented: 30 },
  handle: { case: 25, format: 35, near_miss: 20, invented: 20 },
  warehouse: { case: 40, format: 10, near_miss: 20, invented: 30 },
};

function profile(
  reasonRate: number,
  reasonShapes: Record<string, number>,
  seventh = 0,
): AgentProfile {
  return {
    outOfSet: { reason_code: reasonRate, component: 0.03, handle: 0.02, warehouse: 0.015 },
    shapes: { reason_code: reasonShapes, ...OTHER_SHAPES },
    seventhCodeShare: seventh,
    tools: TOOLS,
  };
}

/** The reference story in compressed time; each phase starts at a share of the run's calls. */
export const PHASES: readonly Phase[] = [
  { name: 'baseline', label: 'baseline: first figures from live traffic', from: 0, profile: profile(0.062, BASELINE_REASON_SHAPES) },
  { name: 'description_rewrite', label: 'refund_order description rewritten', from: 0.25, profile: profile(0.011, BASELINE_REASON_SHAPES) },
  { name: 'provider_migration', label: 'model provider migrated', from: 0.45, profile: profile(0.034, MIGRATED_REASON_SHAPES) },
  { name: 'seventh_code', label: 'refunds owner adds MISSING_PARTS (cached set lacks it)', from: 0.6, profile: profile(0.034, MIGRATED_REASON_SHAPES, 0.15), event: 'add_seventh_code' },
  { name: 'identity_outage', label: 'identity owner down: 503 for every fetch', from: 0.72, profile: profile(0.034, MIGRATED_REASON_SHAPES, 0.15), event: 'identity_down' },
  { name: 'identity_recovered', label: 'identity owner back', from: 0.88, profile: profile(0.034, MIGRATED_REASON_SHAPES, 0.15), event: 'identity_up' },
]; // prettier-ignore

export interface ScenarioTiming {
  durationMs: number;
  totalCalls: number;
  /** The provider's TTL: the production 300 s, scaled to the compressed run. */
  ttlMs: number;
  /** How long a set is served stale after the TTL before checks report it unavailable. */
  maxStaleMs: number;
  /** Window of the live "now" rate. */
  windowMs: number;
}

/** Calls per second the agent aims for; a stdio round trip takes well under a millisecond. */
export const DEFAULT_CALLS_PER_SECOND = 250;

/**
 * Scales the story to `durationMs`. The TTL and the stale allowance are each
 * 5 % of the run, so the seventh-code spike (one TTL) and the identity outage
 * (16 % of the run: stale for 10 %, then unavailable) both fit their phases.
 */
export function scenarioTiming(
  durationMs: number,
  callsPerSecond = DEFAULT_CALLS_PER_SECOND,
): ScenarioTiming {
  return {
    durationMs,
    totalCalls: Math.max(PHASES.length, Math.round((durationMs / 1000) * callsPerSecond)),
    ttlMs: Math.max(50, Math.round(durationMs * 0.05)),
    maxStaleMs: Math.max(50, Math.round(durationMs * 0.05)),
    windowMs: Math.max(200, Math.round(durationMs * 0.08)),
  };
}

/** The phase the call with this index belongs to. */
export function phaseIndexAt(call: number, totalCalls: number): number {
  const at = call / totalCalls;
  let index = 0;
  PHASES.forEach((phase, i) => {
    if (phase.from <= at) index = i;
  });
  return index;
}

/** The phase with this index (the last one past the end). */
export function phaseAt(index: number): Phase {
  const phase = PHASES[Math.min(Math.max(index, 0), PHASES.length - 1)];
  if (!phase) throw new Error('the scenario has no phases');
  return phase;
}
