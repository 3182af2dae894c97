/**
 * The known workload of the end-to-end test, and every figure it implies.
 *
 * Two agents check two tools' arguments against value sets served by a real
 * loopback owner:
 *
 * - refund-agent, mode `reject` (enforcing, after having observed):
 *   refund_order.reason_code against refunds.reason_codes. A rejected call is
 *   retried by the model with a legal value, as it would after reading the
 *   repair message; the retry is checked too.
 * - stock-agent, mode `observe`: transfer_stock.items[].warehouse_code against
 *   warehouses.codes (two items per call), and, on one call in ten,
 *   transfer_stock.carrier_code against carriers.codes, whose owner answers
 *   503: those checks fail open (`tool_argument_check_unavailable`).
 *
 * The workload is ten identical rounds. Each round has 1,000 checked values,
 * 62 of them out of set, spread over every mismatch shape; ten rounds make the
 * issue's 10,000 checks with exactly 620 out of set. The first round is the
 * baseline that Prometheus scrapes before the other nine run (see
 * test/README.md, "The end-to-end test", for why the baseline is a
 * one-tenth copy of the whole).
 *
 * refund_order.reason_code: 400 checks per round, 47 out of set (11.75 %):
 *   above the 3 % alert threshold. transfer_stock.items[].warehouse_code: 600
 *   checks per round, 15 out of set (2.5 %): below it.
 */
import { expect } from 'chai';
import type { CheckContext, CheckOutcome, MismatchShape, ValueSetEntry } from '@argcheck/core';

export const ROUNDS = 10;
/** Round 1 is exported and scraped on its own before rounds 2..10 run. */
export const BASELINE_ROUNDS = 1;

export const SERVICES = {
  refund: { name: 'refund-agent', instance: 'refund-agent-e2e-1' },
  stock: { name: 'stock-agent', instance: 'stock-agent-e2e-1' },
  rogue: { name: 'refund-legacy', instance: 'refund-legacy-e2e-1' },
} as const;

export const SET_NAMES = {
  refunds: 'refunds.reason_codes',
  warehouses: 'warehouses.codes',
  carriers: 'carriers.codes',
} as const;

export interface ArgumentId {
  tool: string;
  argument: string;
  set: string;
}

export const REFUND: ArgumentId = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: SET_NAMES.refunds,
};
export const WAREHOUSE: ArgumentId = {
  tool: 'transfer_stock',
  argument: 'items[].warehouse_code',
  set: SET_NAMES.warehouses,
};
export const CARRIER: ArgumentId = {
  tool: 'transfer_stock',
  argument: 'carrier_code',
  set: SET_NAMES.carriers,
};
/** The misconfigured application's hand-made series (never checked by argcheck). */
export const ROGUE: ArgumentId = {
  tool: 'lookup_customer',
  argument: 'tier',
  set: 'customers.tiers',
};

// ---------------------------------------------------------------- value sets

export const REFUND_REASONS: readonly ValueSetEntry[] = [
  { value: 'CUSTOMER_CANCELLED', aliases: ['changed my mind'] },
  { value: 'DAMAGED_ITEM', aliases: ['broken on arrival'] },
  { value: 'DUPLICATE_CHARGE', aliases: ['charged twice', 'double charge'] },
  { value: 'FRAUD_SUSPECTED' },
  { value: 'LATE_DELIVERY', aliases: ['arrived late'] },
  { value: 'NOT_AS_DESCRIBED', aliases: ['not what I ordered'] },
  { value: 'OTHER' },
  { value: 'WRONG_ITEM', aliases: ['sent the wrong thing'] },
];

export const WAREHOUSES: readonly ValueSetEntry[] = [
  { value: 'WH-BER-01', aliases: ['Berlin 1'] },
  { value: 'WH-BER-02' },
  { value: 'WH-CGN-01' },
  { value: 'WH-DRS-01' },
  { value: 'WH-DUS-01' },
  { value: 'WH-FRA-01', aliases: ['Frankfurt'] },
  { value: 'WH-HAJ-01' },
  { value: 'WH-HAM-01', aliases: ['Hamburg'] },
  { value: 'WH-LEJ-01' },
  { value: 'WH-MUC-01', aliases: ['Munich'] },
  { value: 'WH-NUE-01' },
  { value: 'WH-STR-01' },
];

export const CARRIERS: readonly ValueSetEntry[] = [
  { value: 'DHL' },
  { value: 'DPD' },
  { value: 'UPS' },
];

// ------------------------------------------------------------ emitted values

export const SHAPES: readonly MismatchShape[] = [
  'case',
  'format',
  'alias',
  'near_miss',
  'invented',
  'not_string',
];

/** A value the model emits, with the shape the test designed it to have. */
interface Emission {
  value: unknown;
  /** Undefined for members. */
  shape: MismatchShape | undefined;
  /** What the model sends after a rejection (reject mode only). */
  retry?: string;
}

const REFUND_VALUES: Record<MismatchShape, Emission[]> = {
  case: ['duplicate_charge', 'Late_Delivery', 'wrong_item', 'Damaged_Item'].map((value) => ({
    value,
    shape: 'case',
  })),
  format: [
    'not as described',
    'Not-As-Described',
    ' LATE_DELIVERY ',
    '"DAMAGED_ITEM"',
    'customer cancelled',
  ].map((value) => ({ value, shape: 'format' })),
  alias: [
    { value: 'charged twice', retry: 'DUPLICATE_CHARGE' },
    { value: 'arrived late', retry: 'LATE_DELIVERY' },
    { value: 'changed my mind', retry: 'CUSTOMER_CANCELLED' },
  ].map((e) => ({ ...e, shape: 'alias' })),
  near_miss: [
    { value: 'DUPLICATE_CHARG', retry: 'DUPLICATE_CHARGE' },
    { value: 'LATE_DELIVERRY', retry: 'LATE_DELIVERY' },
    { value: 'NOT_AS_DESCRIBD', retry: 'NOT_AS_DESCRIBED' },
    { value: 'WRONG_ITME', retry: 'WRONG_ITEM' },
  ].map((e) => ({ ...e, shape: 'near_miss' })),
  invented: [
    'CUSTOMER_UNHAPPY',
    'PRICE_TOO_HIGH',
    // Longer than the SDK's 256 UTF-16 units: cut by the instrumentation
    // (to 512 UTF-8 bytes), then again by the collector (to 256 bytes).
    'é'.repeat(300),
    // Cut by the instrumentation only.
    'x'.repeat(1000),
    'REFUND_REQUESTED',
  ].map((value) => ({ value, shape: 'invented', retry: 'OTHER' })),
  not_string: [42, null, true, { code: 'OTHER' }, ['OTHER']].map((value) => ({
    value,
    shape: 'not_string',
    retry: 'OTHER',
  })),
};

const WAREHOUSE_VALUES: Record<MismatchShape, Emission[]> = {
  case: ['wh-ber-01', 'Wh-Muc-01'].map((value) => ({ value, shape: 'case' })),
  format: ['WH_BER_01', 'wh ham 01', 'WH.FRA.01'].map((value) => ({ value, shape: 'format' })),
  alias: ['Berlin 1', 'hamburg', 'Munich'].map((value) => ({ value, shape: 'alias' })),
  near_miss: ['WH-BER-03', 'WH-MUK-01', 'WH-FRA-10'].map((value) => ({
    value,
    shape: 'near_miss',
  })),
  invented: [
    'WH-XXX-99',
    // Within the SDK's 256 UTF-16 units but 400 UTF-8 bytes: cut by the collector only.
    'ü'.repeat(200),
  ].map((value) => ({ value, shape: 'invented' })),
  not_string: [7, null, false].map((value) => ({ value, shape: 'not_string' })),
};

/** Mismatches per round, by shape. */
export const REFUND_SHAPES_PER_ROUND: Readonly<Record<MismatchShape, number>> = {
  case: 12,
  format: 9,
  alias: 6,
  near_miss: 8,
  invented: 9,
  not_string: 3,
};
export const WAREHOUSE_SHAPES_PER_ROUND: Readonly<Record<MismatchShape, number>> = {
  case: 3,
  format: 3,
  alias: 2,
  near_miss: 4,
  invented: 2,
  not_string: 1,
};
/** Checked values per round (refund: first attempts plus retries; stock: items). */
export const REFUND_CHECKS_PER_ROUND = 400;
export const WAREHOUSE_CHECKS_PER_ROUND = 600;
const ITEMS_PER_CALL = 2;
/** One transfer_stock call in this many names a carrier (an unavailable check). */
const CARRIER_EVERY = 10;

const sum = (counts: Readonly<Record<string, number>>): number =>
  Object.values(counts).reduce((a, b) => a + b, 0);

const FORMATTING: readonly MismatchShape[] = ['case', 'format'];

/** Shapes whose values are still out of set after normalisation. */
const sumNotNormalised = (counts: Readonly<Record<MismatchShape, number>>): number =>
  SHAPES.filter((s) => !FORMATTING.includes(s)).reduce((a, s) => a + counts[s], 0);

/** Deterministic shuffle (mulberry32), so every run emits the same sequence. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function mismatches(
  pool: Record<MismatchShape, Emission[]>,
  counts: Readonly<Record<MismatchShape, number>>,
): Emission[] {
  return SHAPES.flatMap((shape) =>
    Array.from({ length: counts[shape] }, (_, i) => pool[shape][i % pool[shape].length]!),
  );
}

function members(entries: readonly ValueSetEntry[], n: number): Emission[] {
  return Array.from({ length: n }, (_, i) => ({
    value: entries[i % entries.length]!.value,
    shape: undefined,
  }));
}

/** The refund_order calls of one round (first attempts; rejected ones are retried). */
function refundCalls(): Emission[] {
  const out = mismatches(REFUND_VALUES, REFUND_SHAPES_PER_ROUND);
  const retries = sumNotNormalised(REFUND_SHAPES_PER_ROUND);
  const inSetFirst = REFUND_CHECKS_PER_ROUND - out.length - retries;
  return shuffled([...members(REFUND_REASONS, inSetFirst), ...out], 1);
}

/** The warehouse codes of one round's transfer_stock items, two per call. */
function warehouseItems(): Emission[] {
  const out = mismatches(WAREHOUSE_VALUES, WAREHOUSE_SHAPES_PER_ROUND);
  return shuffled([...members(WAREHOUSES, WAREHOUSE_CHECKS_PER_ROUND - out.length), ...out], 2);
}

const REFUND_PLAN = refundCalls();
const WAREHOUSE_PLAN = warehouseItems();
export const STOCK_CALLS_PER_ROUND = WAREHOUSE_CHECKS_PER_ROUND / ITEMS_PER_CALL;
export const CARRIER_CHECKS_PER_ROUND = Math.ceil(STOCK_CALLS_PER_ROUND / CARRIER_EVERY);

// ------------------------------------------------------------------ figures

export interface ArgumentFigures {
  checks: number;
  /** in_set="false" */
  outOfSet: number;
  /** in_set="false", in_set_normalised="true": case and format variants */
  formatting: number;
  /** in_set_normalised="false" */
  outOfSetNormalised: number;
  shapes: Record<MismatchShape, number>;
}

function figures(
  checksPerRound: number,
  shapesPerRound: Readonly<Record<MismatchShape, number>>,
  rounds: number,
): ArgumentFigures {
  const shapes = Object.fromEntries(SHAPES.map((s) => [s, shapesPerRound[s] * rounds])) as Record<
    MismatchShape,
    number
  >;
  const outOfSetNormalised = sumNotNormalised(shapes);
  const outOfSet = sum(shapes);
  return {
    checks: checksPerRound * rounds,
    outOfSet,
    formatting: outOfSet - outOfSetNormalised,
    outOfSetNormalised,
    shapes,
  };
}

export const refundFigures = (rounds: number): ArgumentFigures =>
  figures(REFUND_CHECKS_PER_ROUND, REFUND_SHAPES_PER_ROUND, rounds);
export const warehouseFigures = (rounds: number): ArgumentFigures =>
  figures(WAREHOUSE_CHECKS_PER_ROUND, WAREHOUSE_SHAPES_PER_ROUND, rounds);

/** The misconfigured application's counter, per round: what it adds, with which attributes. */
export const ROGUE_POINTS_PER_ROUND: readonly {
  count: number;
  attributes: Record<string, string | boolean>;
}[] = [
  { count: 2, attributes: { ...ROGUE, in_set: 'true', in_set_normalised: 'true' } },
  {
    count: 1,
    attributes: { ...ROGUE, in_set: 'false', in_set_normalised: 'false', value: 'PLATINUM+' },
  },
  {
    count: 1,
    attributes: { ...ROGUE, in_set: 'false', in_set_normalised: 'false', value: 'gold ' },
  },
  // A boolean where the contract says "false": the collector stringifies it.
  {
    count: 1,
    attributes: { ...ROGUE, in_set: false, in_set_normalised: 'false', value: 'Diamond' },
  },
];
export const ROGUE_EMITTED_VALUES = ['PLATINUM+', 'gold ', 'Diamond'];

// --------------------------------------------------------- log expectations

/** The attributes a log record of one checked value must have after the collector. */
export type ExpectedRecord = Record<string, string>;

const SDK_MAX_VALUE_LENGTH = 256; // UTF-16 code units (instrumentation default)
const COLLECTOR_MAX_VALUE_BYTES = 256; // otel-collector.yaml truncate_all

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The emitted value as the collector writes it, and whether it was cut on the way. */
export function loggedValue(value: unknown): { value: string; truncated: boolean } {
  let text = valueText(value);
  let truncated = false;
  if (text.length > SDK_MAX_VALUE_LENGTH) {
    text = text.slice(0, SDK_MAX_VALUE_LENGTH);
    truncated = true;
  }
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > COLLECTOR_MAX_VALUE_BYTES) {
    let end = COLLECTOR_MAX_VALUE_BYTES;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a UTF-8 sequence
    text = bytes.subarray(0, end).toString('utf8');
    truncated = true;
  }
  return { value: text, truncated };
}

function expectedRecord(
  id: ArgumentId,
  emission: Emission,
  ctx: Required<CheckContext>,
): ExpectedRecord {
  const logged = loggedValue(emission.value);
  const inSet = emission.shape === undefined;
  const record: ExpectedRecord = {
    tool: id.tool,
    argument: id.argument,
    set: id.set,
    in_set: String(inSet),
    in_set_normalised: String(inSet || FORMATTING.includes(emission.shape!)),
    value: logged.value,
    value_truncated: String(logged.truncated),
    'gen_ai.conversation.id': ctx.conversationId,
    'gen_ai.tool.call.id': ctx.toolCallId,
  };
  if (emission.shape !== undefined) record.shape = emission.shape;
  return record;
}

// ----------------------------------------------------------------- driving

export interface Checker {
  check(tool: string, args: unknown, ctx?: CheckContext): CheckOutcome;
}

/** Asserts that the instrumentation saw a value the way the workload designed it. */
function expectFinding(
  outcome: CheckOutcome,
  argument: string,
  emission: Emission,
  where: string,
): void {
  const finding = outcome.findings.find((f) => f.argument === argument);
  expect(finding, `${where}: a finding for ${argument}=${valueText(emission.value)}`).to.exist;
  expect(finding!.status, where).to.equal('checked');
  if (finding!.status !== 'checked') return;
  expect(
    { inSet: finding!.inSet, shape: finding!.shape },
    `${where}: the workload designed ${valueText(emission.value).slice(0, 40)} as ${emission.shape ?? 'a member'}`,
  ).to.deep.equal({ inSet: emission.shape === undefined, shape: emission.shape });
}

/**
 * Run round `round` (1-based) through the two agents' instrumentations, the
 * way a dispatcher calls `inst.check`. Returns the log records the round must
 * produce. Throws if the instrumentation disagrees with the designed shapes
 * (a broken workload, not a broken pipeline).
 */
export function runRound(
  round: number,
  refundAgent: Checker,
  stockAgent: Checker,
): ExpectedRecord[] {
  const records: ExpectedRecord[] = [];

  REFUND_PLAN.forEach((emission, i) => {
    const ctx = { conversationId: `conv-r${round}-${i}`, toolCallId: `call-r${round}-${i}` };
    const where = `round ${round}, refund_order call ${i}`;
    const outcome = refundAgent.check(
      REFUND.tool,
      { order_id: `o-${round}-${i}`, [REFUND.argument]: emission.value },
      ctx,
    );
    expectFinding(outcome, REFUND.argument, emission, where);
    records.push(expectedRecord(REFUND, emission, ctx));
    const formatting = emission.shape !== undefined && FORMATTING.includes(emission.shape);
    const expectedAction =
      emission.shape === undefined ? 'call' : formatting ? 'call_rewritten' : 'reject';
    expect(outcome.action, where).to.equal(expectedAction);
    if (outcome.action !== 'reject') return;
    expect(outcome.repairMessage, where).to.be.a('string').and.include(REFUND.argument);
    // The model reads the repair message and tries again with a legal value.
    const retry: Emission = { value: emission.retry, shape: undefined };
    const retryCtx = { ...ctx, toolCallId: `${ctx.toolCallId}-retry` };
    const second = refundAgent.check(
      REFUND.tool,
      { order_id: `o-${round}-${i}`, [REFUND.argument]: retry.value },
      retryCtx,
    );
    expectFinding(second, REFUND.argument, retry, `${where} (retry)`);
    expect(second.action, `${where} (retry)`).to.equal('call');
    records.push(expectedRecord(REFUND, retry, retryCtx));
  });

  for (let call = 0; call < STOCK_CALLS_PER_ROUND; call++) {
    const ctx = { conversationId: `conv-s${round}-${call}`, toolCallId: `call-s${round}-${call}` };
    const where = `round ${round}, transfer_stock call ${call}`;
    const items = WAREHOUSE_PLAN.slice(call * ITEMS_PER_CALL, (call + 1) * ITEMS_PER_CALL);
    const args: Record<string, unknown> = {
      sku: `SKU-${call % 37}`,
      items: items.map((e, k) => ({ warehouse_code: e.value, quantity: k + 1 })),
    };
    const withCarrier = call % CARRIER_EVERY === 0;
    if (withCarrier) args.carrier_code = CARRIERS[call % CARRIERS.length]!.value;
    const outcome = stockAgent.check(WAREHOUSE.tool, args, ctx);
    expect(outcome.action, where).to.equal('call'); // observe mode
    expect(outcome.findings, where).to.have.length(items.length + (withCarrier ? 1 : 0));
    for (const [k, emission] of items.entries()) {
      const finding = outcome.findings[k]!;
      expect(finding.argument, where).to.equal(WAREHOUSE.argument);
      expect(finding.status, where).to.equal('checked');
      if (finding.status === 'checked') {
        expect(
          { inSet: finding.inSet, shape: finding.shape },
          `${where}: ${valueText(emission.value).slice(0, 40)}`,
        ).to.deep.equal({ inSet: emission.shape === undefined, shape: emission.shape });
      }
      records.push(expectedRecord(WAREHOUSE, emission, ctx));
    }
    if (withCarrier) {
      const carrier = outcome.findings[items.length]!;
      expect(carrier, where).to.deep.include({
        argument: CARRIER.argument,
        status: 'unavailable',
        reason: 'fetch_failed',
      });
    }
  }
  return records;
}
