import type { AgentProfile, RouteBehaviour } from './agent.js';
import { MODELS, type RouteName } from './traffic.js';

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
 * Mismatch shapes of refund reason codes on the current model: case and
 * format are 27 % of them, the share normalisation can repair (6.2 % → 4.5 %).
 */
const CURRENT_REASON_SHAPES = {
  case: 15,
  format: 12,
  alias: 18,
  near_miss: 12,
  invented: 38,
  not_string: 5,
};
/** The new provider's model lowercases more, so the formatting share grows. */
const CANARY_REASON_SHAPES = {
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

function behaviour(reasonRate: number, reasonShapes: Record<string, number>): RouteBehaviour {
  return {
    outOfSet: { reason_code: reasonRate, component: 0.03, handle: 0.02, warehouse: 0.015 },
    shapes: { reason_code: reasonShapes, ...OTHER_SHAPES },
  };
}

/**
 * How each route gets refund reason codes wrong: 6.2 % with the old
 * description, 1.1 % once it is rewritten, and 3.4 % for the new provider's
 * model on the rewritten description (three times the current model).
 */
export const ROUTE_BEHAVIOUR: Readonly<Record<RouteName, RouteBehaviour>> = {
  original: behaviour(0.062, CURRENT_REASON_SHAPES),
  rewritten: behaviour(0.011, CURRENT_REASON_SHAPES),
  canary: behaviour(0.034, CANARY_REASON_SHAPES),
};

/** The canary's share of the calls once it starts. */
export const CANARY_SHARE = 0.15;

function profile(routes: AgentProfile['routes'], seventh = 0): AgentProfile {
  return { routes, behaviour: ROUTE_BEHAVIOUR, seventhCodeShare: seventh, tools: TOOLS };
}

const HALF_ROLLED_OUT = { original: 0.5, rewritten: 0.5 };
const ON_CANARY = { rewritten: 1 - CANARY_SHARE, canary: CANARY_SHARE };

/** The reference story in compressed time; each phase starts at a share of the run's calls. */
export const PHASES: readonly Phase[] = [
  { name: 'baseline', label: 'baseline: first figures from live traffic', from: 0, profile: profile({ original: 1 }) },
  { name: 'description_rewrite', label: 'refund_order description rewrite on half the servers', from: 0.25, profile: profile(HALF_ROLLED_OUT) },
  { name: 'rewrite_rolled_out', label: 'description rewrite rolled out to every server', from: 0.35, profile: profile({ rewritten: 1 }) },
  { name: 'provider_canary', label: `provider canary: ${MODELS.canary.model} on ${CANARY_SHARE * 100} % of calls`, from: 0.45, profile: profile(ON_CANARY) },
  { name: 'seventh_code', label: 'refunds owner adds MISSING_PARTS (cached set lacks it)', from: 0.6, profile: profile(ON_CANARY, 0.15), event: 'add_seventh_code' },
  { name: 'identity_outage', label: 'identity owner down: 503 for every fetch', from: 0.72, profile: profile(ON_CANARY, 0.15), event: 'identity_down' },
  { name: 'identity_recovered', label: 'identity owner back', from: 0.88, profile: profile(ON_CANARY, 0.15), event: 'identity_up' },
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
