/**
 * The Prometheus series the workload must produce, with their exact values,
 * and the snapshot of what Prometheus holds, in the same form.
 */
import { MISMATCH_SHAPES, UNAVAILABLE_REASONS } from '@argcheck/core';
import {
  COVERAGE_VALUES,
  FETCH_OUTCOME_VALUES,
  REPAIR_OUTCOME_VALUES,
  SET_CHANGE_VALUES,
  TOOL_UNNAMED,
} from '@argcheck/instrumentation/semconv';
import type { PrometheusClient, Sample } from './stack.js';
import {
  CARRIER,
  CARRIER_CHECKS_PER_ROUND,
  REFUND,
  REFUND_REASONS,
  ROGUE,
  ROGUE_POINTS_PER_ROUND,
  SERVICES,
  SET_NAMES,
  STOCK_CALLS_PER_ROUND,
  WAREHOUSE,
  WAREHOUSES,
  refundFigures,
  warehouseFigures,
  type ArgumentFigures,
  type ArgumentId,
} from './workload.js';

export type Labels = Record<string, string>;

const FETCH_OUTCOMES = Object.values(FETCH_OUTCOME_VALUES);

/** `name{a="1",b="2"}` with labels sorted: one key per series. */
export function seriesKey(name: string, labels: Labels): string {
  const inner = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
  return `${name}{${inner}}`;
}

function job(service: { name: string; instance: string }): Labels {
  return { job: service.name, instance: service.instance };
}

/** Which application reports each value set's fetches, age and size. */
const SET_OWNER_SERVICE: Record<string, { name: string; instance: string }> = {
  [SET_NAMES.refunds]: SERVICES.refund,
  [SET_NAMES.warehouses]: SERVICES.stock,
  [SET_NAMES.carriers]: SERVICES.stock,
};

export const SET_SIZES: Record<string, number> = {
  [SET_NAMES.refunds]: REFUND_REASONS.length,
  [SET_NAMES.warehouses]: WAREHOUSES.length,
  // Never fetched: its owner answers 503. Reported as size 0, and without an age.
  [SET_NAMES.carriers]: 0,
};

export interface ExpectationInput {
  /** Rounds run so far. */
  rounds: number;
  /** `<set>/<outcome>` → fetches the owner answered (ValueSetOwner.answered). */
  fetches: ReadonlyMap<string, number>;
  /** Seconds since each fetched set's last good fetch, on the value-set clock. */
  ages: Record<string, number>;
}

const NO_CHECKS: ArgumentFigures = {
  checks: 0,
  outOfSet: 0,
  formatting: 0,
  outOfSetNormalised: 0,
  shapes: Object.fromEntries(MISMATCH_SHAPES.map((shape) => [shape, 0])) as Record<
    (typeof MISMATCH_SHAPES)[number],
    number
  >,
};

/**
 * Every `tool_argument_*` series (histogram buckets excepted: see
 * `bucketExpectations`) with its value. argcheck exports every series of a
 * configured argument, tool and value set from start-up, at zero until it
 * counts; another application's counter exists only once it has counted.
 */
export function expectedSeries(input: ExpectationInput): Map<string, number> {
  const out = new Map<string, number>();
  const exported = (name: string, labels: Labels, value: number): void => {
    out.set(seriesKey(name, labels), value);
  };
  const put = (name: string, labels: Labels, value: number): void => {
    if (value > 0 || !name.endsWith('_total')) exported(name, labels, value);
  };
  const checked = (
    id: ArgumentId,
    service: { name: string; instance: string },
    f: ArgumentFigures,
    counted: { rewritten?: number; unavailable?: Partial<Record<string, number>> } = {},
  ): void => {
    const base = { ...job(service), ...id };
    const vc = 'tool_argument_value_check_total';
    exported(vc, { ...base, in_set: 'true', in_set_normalised: 'true' }, f.checks - f.outOfSet);
    exported(vc, { ...base, in_set: 'false', in_set_normalised: 'true' }, f.formatting);
    exported(vc, { ...base, in_set: 'false', in_set_normalised: 'false' }, f.outOfSetNormalised);
    for (const shape of MISMATCH_SHAPES)
      exported('tool_argument_mismatch_total', { ...base, shape }, f.shapes[shape]);
    for (const reason of UNAVAILABLE_REASONS) {
      exported(
        'tool_argument_check_unavailable_total',
        { ...base, reason },
        counted.unavailable?.[reason] ?? 0,
      );
    }
    exported('tool_argument_rewritten_total', base, counted.rewritten ?? 0);
  };

  /** The dispatcher's calls of `tool`, every one with a checked argument; any other tool's, none. */
  const calls = (service: { name: string; instance: string }, tool: string, checked: number) => {
    for (const t of [tool, TOOL_UNNAMED]) {
      for (const coverage of COVERAGE_VALUES) {
        const value = t === tool && coverage === 'checked' ? checked : 0;
        exported(
          'tool_argument_call_total',
          { ...job(service), tool: t, integration: 'dispatcher', coverage },
          value,
        );
      }
    }
  };

  const refund = refundFigures(input.rounds);
  // One checked value per refund call, the retries of rejected calls included.
  calls(SERVICES.refund, REFUND.tool, refund.checks);
  calls(SERVICES.stock, WAREHOUSE.tool, STOCK_CALLS_PER_ROUND * input.rounds);
  // reject mode: case/format variants are rewritten, every other mismatch rejected.
  checked(REFUND, SERVICES.refund, refund, { rewritten: refund.formatting });
  exported(
    'tool_argument_repair_started_total',
    { ...job(SERVICES.refund), tool: REFUND.tool },
    refund.outOfSetNormalised,
  );

  // Every rejected argument's retry is a member in the same conversation: all resolved.
  const repairs = (
    id: ArgumentId,
    service: { name: string; instance: string },
    resolved: number,
  ): void => {
    for (const outcome of REPAIR_OUTCOME_VALUES) {
      exported(
        'tool_argument_repair_outcome_total',
        { ...job(service), ...id, outcome },
        outcome === 'resolved' ? resolved : 0,
      );
    }
  };
  repairs(REFUND, SERVICES.refund, refund.outOfSetNormalised);
  repairs(WAREHOUSE, SERVICES.stock, 0);
  repairs(CARRIER, SERVICES.stock, 0);

  checked(WAREHOUSE, SERVICES.stock, warehouseFigures(input.rounds));
  checked(CARRIER, SERVICES.stock, NO_CHECKS, {
    unavailable: { fetch_failed: CARRIER_CHECKS_PER_ROUND * input.rounds },
  });
  exported(
    'tool_argument_repair_started_total',
    { ...job(SERVICES.stock), tool: WAREHOUSE.tool },
    0,
  );

  // The misconfigured application: its `value` attribute is gone and its
  // data points are merged (string and boolean "false" alike).
  const rogue = new Map<string, number>();
  for (const point of ROGUE_POINTS_PER_ROUND) {
    const labels: Labels = {
      ...job(SERVICES.rogue),
      ...ROGUE,
      in_set: String(point.attributes.in_set),
      in_set_normalised: String(point.attributes.in_set_normalised),
    };
    const key = JSON.stringify(labels);
    rogue.set(key, (rogue.get(key) ?? 0) + point.count * input.rounds);
  }
  for (const [labels, value] of rogue)
    put('tool_argument_value_check_total', JSON.parse(labels) as Labels, value);

  for (const set of Object.keys(SET_OWNER_SERVICE)) {
    for (const outcome of FETCH_OUTCOMES) {
      const labels = { ...job(SET_OWNER_SERVICE[set]!), set, source: 'http', outcome };
      exported(
        'tool_argument_value_set_fetch_total',
        labels,
        input.fetches.get(`${set}/${outcome}`) ?? 0,
      );
    }
  }
  for (const [key, count] of input.fetches) {
    const [set, outcome] = key.split('/') as [string, string];
    const labels = { ...job(SET_OWNER_SERVICE[set]!), set, source: 'http', outcome };
    put('tool_argument_value_set_fetch_duration_seconds_count', labels, count);
    // The value-set clock stands still during a fetch: every duration is 0 s.
    put('tool_argument_value_set_fetch_duration_seconds_sum', labels, 0);
  }
  // No owner changes its set during the run: every change counter stays at zero.
  for (const set of Object.keys(SET_OWNER_SERVICE)) {
    for (const change of SET_CHANGE_VALUES) {
      exported(
        'tool_argument_value_set_change_total',
        { ...job(SET_OWNER_SERVICE[set]!), set, source: 'http', change },
        0,
      );
    }
  }
  for (const [set, size] of Object.entries(SET_SIZES)) {
    const labels = { ...job(SET_OWNER_SERVICE[set]!), set, source: 'http' };
    put('tool_argument_value_set_size', labels, size);
    const age = input.ages[set];
    if (age !== undefined) put('tool_argument_value_set_age_seconds', labels, age);
  }
  return out;
}

/** Every argcheck series Prometheus holds now (buckets apart), keyed like `expectedSeries`. */
export async function snapshot(
  prometheus: PrometheusClient,
  time?: number,
): Promise<{ series: Map<string, number>; buckets: Sample[]; raw: Sample[] }> {
  const raw = await prometheus.query('{__name__=~"tool_argument_.+"}', time);
  const series = new Map<string, number>();
  const buckets: Sample[] = [];
  for (const sample of raw) {
    const { __name__: name, ...labels } = sample.metric;
    if (name!.endsWith('_bucket')) buckets.push(sample);
    else series.set(seriesKey(name!, labels), Number(sample.value[1]));
  }
  return { series, buckets, raw };
}

/** Lines saying how two series maps differ, or an empty string. */
export function diffSeries(expected: Map<string, number>, actual: Map<string, number>): string {
  const lines: string[] = [];
  for (const [key, value] of expected) {
    if (!actual.has(key)) lines.push(`missing   ${key} (expected ${value})`);
    else if (actual.get(key) !== value)
      lines.push(`wrong     ${key}: ${actual.get(key)} (expected ${value})`);
  }
  for (const [key, value] of actual) {
    if (!expected.has(key)) lines.push(`unexpected ${key} = ${value}`);
  }
  return lines.sort().join('\n');
}

/** Out-of-set ratios the workload implies, per tool/argument. */
export function expectedRatios(rounds: number): {
  id: ArgumentId;
  raw: number;
  normalised: number;
  checks: number;
}[] {
  const refund = refundFigures(rounds);
  const warehouse = warehouseFigures(rounds);
  const rogueChecks = ROGUE_POINTS_PER_ROUND.reduce((a, p) => a + p.count, 0) * rounds;
  const rogueOut =
    ROGUE_POINTS_PER_ROUND.filter((p) => String(p.attributes.in_set) === 'false').reduce(
      (a, p) => a + p.count,
      0,
    ) * rounds;
  return [
    {
      id: REFUND,
      raw: refund.outOfSet / refund.checks,
      normalised: refund.outOfSetNormalised / refund.checks,
      checks: refund.checks,
    },
    {
      id: WAREHOUSE,
      raw: warehouse.outOfSet / warehouse.checks,
      normalised: warehouse.outOfSetNormalised / warehouse.checks,
      checks: warehouse.checks,
    },
    {
      id: ROGUE,
      raw: rogueOut / rogueChecks,
      normalised: rogueOut / rogueChecks,
      checks: rogueChecks,
    },
  ];
}
