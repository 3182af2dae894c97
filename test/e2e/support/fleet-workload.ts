/**
 * The fleet test's processes and their traffic, and every figure it implies.
 *
 * Four processes of one service, refund-agent, check refund_order.reason_code
 * against refunds.reason_codes, each with traffic of its own (volume and
 * out-of-set share), and each with the SDK set up a different way, so that
 * identity comes from a different place in each:
 *
 * | process | SDK setup                                            | service.instance.id                  |
 * | ------- | ---------------------------------------------------- | ------------------------------------ |
 * | a1      | NodeSDK, default resource detectors (env, process, host) | none: the collector composes host:pid |
 * | a2      | MeterProvider by hand, host and process detectors    | none: the collector composes host:pid |
 * | a3      | NodeSDK, OTEL_NODE_RESOURCE_DETECTORS=all            | random (serviceinstance detector)    |
 * | a4      | MeterProvider by hand, OTEL_RESOURCE_ATTRIBUTES      | refund-agent-4, kept across restarts |
 *
 * Two misconfigured processes of refund-legacy count on a hand-made
 * `tool_argument_value_check` counter with the emitted value as an attribute:
 * one through an agent collector, one straight to the gateway.
 *
 * Every process runs ROUNDS identical rounds, so the first round (the baseline
 * every store sees first) is a tenth of each process's traffic and the ratio
 * of the increases after it is the ratio of the whole (docs/pipeline.md, "The
 * end-to-end test").
 */
import { MISMATCH_SHAPES, type MismatchShape } from '@argcheck/core';

export const ROUNDS = 10;
export const SERVICE = 'refund-agent';
export const ROGUE_SERVICE = 'refund-legacy';
export const TOOL = 'refund_order';
export const ARGUMENT = 'reason_code';
export const SET = 'refunds.reason_codes';
/** The misconfigured processes' hand-made series (never checked by argcheck). */
export const ROGUE_LABELS = { tool: 'lookup_customer', argument: 'tier', set: 'customers.tiers' };

export const REASONS = [
  'CUSTOMER_CANCELLED',
  'DAMAGED_ITEM',
  'DUPLICATE_CHARGE',
  'LATE_DELIVERY',
  'NOT_AS_DESCRIBED',
  'OTHER',
  'WRONG_ITEM',
] as const;

/** One emitted value per mismatch shape. */
export const SHAPE_VALUES: Readonly<Record<MismatchShape, unknown>> = {
  case: 'duplicate_charge',
  format: 'not as described',
  alias: 'charged twice',
  near_miss: 'DUPLICATE_CHARG',
  invented: 'CUSTOMER_UNHAPPY',
  not_string: 42,
};
export const ALIASES: Readonly<Record<string, readonly string[]>> = {
  DUPLICATE_CHARGE: ['charged twice'],
};

/** How a process builds its SDK (see the table above). */
export type SdkSetup = 'node-sdk' | 'node-sdk-all-detectors' | 'meter-provider' | 'rogue';

/** One round of a process: checked values that are members, and mismatches by shape. */
export interface Round {
  members: number;
  shapes: Partial<Record<MismatchShape, number>>;
}

export interface FleetProcess {
  /** Name in the test's messages. */
  id: string;
  sdk: SdkSetup;
  service: string;
  /** OTEL_RESOURCE_ATTRIBUTES service.instance.id, when the process sets one. */
  instanceId?: string;
  /** Which collector it exports to: agent 0, agent 1, or the gateway itself. */
  via: 0 | 1 | 'gateway';
  round: Round;
}

export const PROCESSES: readonly FleetProcess[] = [
  {
    id: 'a1',
    sdk: 'node-sdk',
    service: SERVICE,
    via: 0,
    round: { members: 95, shapes: { case: 2, format: 1, invented: 2 } },
  },
  {
    id: 'a2',
    sdk: 'meter-provider',
    service: SERVICE,
    via: 0,
    round: { members: 170, shapes: { invented: 10, near_miss: 10, alias: 5, not_string: 5 } },
  },
  {
    id: 'a3',
    sdk: 'node-sdk-all-detectors',
    service: SERVICE,
    via: 1,
    round: { members: 297, shapes: { invented: 3 } },
  },
  {
    id: 'a4',
    sdk: 'meter-provider',
    service: SERVICE,
    instanceId: 'refund-agent-4',
    via: 1,
    round: { members: 130, shapes: { case: 10, invented: 10 } },
  },
  {
    id: 'rogue-via-agent',
    sdk: 'rogue',
    service: ROGUE_SERVICE,
    instanceId: 'refund-legacy-1',
    via: 1,
    round: { members: 9, shapes: { invented: 3 } },
  },
  {
    id: 'rogue-direct',
    sdk: 'rogue',
    service: ROGUE_SERVICE,
    instanceId: 'refund-legacy-2',
    via: 'gateway',
    round: { members: 4, shapes: { invented: 4 } },
  },
];

/** The process killed after KILL_AFTER rounds and started again. */
export const RESTARTED = 'a4';
export const KILL_AFTER = 4;

const FORMATTING: readonly MismatchShape[] = ['case', 'format'];

/** The values of one round, in a fixed order. */
export function roundValues(round: Round): unknown[] {
  const values: unknown[] = Array.from(
    { length: round.members },
    (_, i) => REASONS[i % REASONS.length],
  );
  for (const [shape, n] of Object.entries(round.shapes) as [MismatchShape, number][]) {
    for (let i = 0; i < n; i++) values.push(SHAPE_VALUES[shape]);
  }
  return values;
}

/** A Prometheus series key: name and labels without job-independent `instance`. */
export const seriesKey = (name: string, labels: Record<string, string>): string =>
  `${name}{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(',')}}`;

/**
 * The counter series of `rounds` rounds of one process, summed over instances:
 * key (with `job`, without `instance`) → count. argcheck exports every series
 * of a configured argument from start-up, at zero until it counts; the
 * misconfigured processes' hand-made counter only once it has counted.
 */
function addRounds(out: Map<string, number>, p: FleetProcess, rounds: number): void {
  const add = (name: string, labels: Record<string, string>, n: number): void => {
    if (p.sdk === 'rogue' && n * rounds === 0) return;
    const key = seriesKey(name, { job: p.service, ...labels });
    out.set(key, (out.get(key) ?? 0) + n * rounds);
  };
  const count = (shape: MismatchShape): number => p.round.shapes[shape] ?? 0;
  const formatting = FORMATTING.reduce((a, s) => a + count(s), 0);
  const other = MISMATCH_SHAPES.filter((s) => !FORMATTING.includes(s)).reduce(
    (a, s) => a + count(s),
    0,
  );
  const vc = 'tool_argument_value_check_total';
  if (p.sdk === 'rogue') {
    // The hand-made counter: points that differ only in attributes the
    // collector removes merge into one series per in_set.
    const rogue = { ...ROGUE_LABELS, in_set_normalised: 'false' };
    add(vc, { ...rogue, in_set: 'true', in_set_normalised: 'true' }, p.round.members);
    add(vc, { ...rogue, in_set: 'false' }, other + formatting);
    return;
  }
  const base = { tool: TOOL, argument: ARGUMENT, set: SET };
  add(vc, { ...base, in_set: 'true', in_set_normalised: 'true' }, p.round.members);
  add(vc, { ...base, in_set: 'false', in_set_normalised: 'true' }, formatting);
  add(vc, { ...base, in_set: 'false', in_set_normalised: 'false' }, other);
  for (const shape of MISMATCH_SHAPES)
    add('tool_argument_mismatch_total', { ...base, shape }, count(shape));
}

/** What the stores must hold, summed over instances, when each process has run `rounds[id]` rounds. */
export function expectedSums(rounds: Readonly<Record<string, number>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of PROCESSES) addRounds(out, p, rounds[p.id] ?? 0);
  return out;
}

/** The true out-of-set ratio of refund_order.reason_code over every check of every process. */
export function trueRatio(roundsRun: Readonly<Record<string, number>>): number {
  let out = 0;
  let all = 0;
  for (const p of PROCESSES.filter((q) => q.sdk !== 'rogue')) {
    const mismatches = Object.values(p.round.shapes).reduce((a, n) => a + n, 0);
    const n = roundsRun[p.id] ?? 0;
    out += mismatches * n;
    all += (p.round.members + mismatches) * n;
  }
  return out / all;
}

export const everyProcess = (rounds: number): Record<string, number> =>
  Object.fromEntries(PROCESSES.map((p) => [p.id, rounds]));
