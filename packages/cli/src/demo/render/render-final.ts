import { alignColumns, formatCount, formatPercent, formatPoints } from '../../report/format.js';
import type { ArgumentFigures, DemoFigures, PhaseFigures, SplitFigures } from '../figures.js';
import type { RepairExample } from '../run-scenario.js';
import { ATTRIBUTION_ATTRIBUTES } from '../telemetry/metric-names.js';
import { MODELS, modelOf } from '../traffic.js';
import { SET_HANDLES } from '../value-set-data.js';

/** The story, one row per stretch: what the counters showed while it happened. */
export function renderStory(phases: readonly PhaseFigures[]): string[] {
  const rows = phases.map((p) => [
    p.label,
    formatCount(p.calls),
    formatPercent(p.refund.outOfSetRate),
    formatPercent(p.refund.normalisedRate),
    `${formatCount(p.createTicket.succeeded)}/${formatCount(p.createTicket.planned)}`,
    formatCount(p.unavailable),
    `${(p.maxAgeSeconds[SET_HANDLES] ?? 0).toFixed(1)} s`,
  ]);
  return [
    'The story (refund_order.reason_code out of set, per stretch)',
    ...alignColumns(
      [['stretch', 'calls', 'out of set', 'normalised', 'create_ticket ok', 'unavailable', 'handles age (max)'], ...rows],
      [false, true, true, true, true, true, true],
    ),
  ];
} // prettier-ignore

/** One argument's mismatch shapes: shares of mismatches (sum 100 %) and of calls (sum = the rate). */
export function renderPartition(a: ArgumentFigures): string[] {
  const title = `Mismatch shapes of ${a.tool}.${a.argument} (${formatCount(a.outOfSet)} of ${formatCount(a.checks)} checks)`;
  if (a.outOfSet === 0) return [title, '  no mismatches'];
  const rows = a.shapes.map((s) => [s.shape, formatCount(s.count), formatPercent(s.shareOfMismatches), formatPercent(s.shareOfCalls)]);
  rows.push(['total', formatCount(a.outOfSet), formatPercent(1), formatPercent(a.outOfSetRate)]);
  const fixed = a.shapes.filter((s) => s.shape === 'case' || s.shape === 'format').reduce((sum, s) => sum + s.shareOfMismatches, 0);
  return [
    title,
    ...alignColumns([['shape', 'count', 'of mismatches', 'of calls'], ...rows], [false, true, true, true]).map((l) => `  ${l}`),
    `  case + format are ${formatPercent(fixed)} of the mismatches: normalisation leaves ` +
      `${formatPercent(a.outOfSetRate)} × (1 − ${formatPercent(fixed)}) = ` +
      `${formatPercent(a.normalisedRate)} (formatting tax ${formatPoints(a.formattingTax)})`,
  ];
} // prettier-ignore

/** Attribute keys a call-level series may carry besides its own (docs/telemetry.md, "Attribution"). */
const ATTRIBUTION_KEYS: readonly string[] = ATTRIBUTION_ATTRIBUTES;

/**
 * What a metrics backend holds, in short: per name, its series, how many
 * still sit at zero, and its attribute keys; the attribution values seen;
 * one series that counted, in full. No emitted value anywhere.
 */
export function renderSeries(series: DemoFigures['series']): string[] {
  const names = new Map<string, { series: number; atZero: number; keys: Set<string>; attributed: boolean }>();
  const values = new Map<string, Set<string>>();
  for (const s of series) {
    const entry = names.get(s.name) ?? { series: 0, atZero: 0, keys: new Set<string>(), attributed: false };
    names.set(s.name, entry);
    entry.series += 1;
    if (s.atZero) entry.atZero += 1;
    for (const [key, value] of Object.entries(s.attributes)) {
      if (!ATTRIBUTION_KEYS.includes(key)) entry.keys.add(key);
      else {
        entry.attributed = true;
        if (!values.has(key)) values.set(key, new Set());
        values.get(key)?.add(value);
      }
    }
  }
  const atZero = series.filter((s) => s.atZero).length;
  const rows = [...names.entries()].map(([name, e]) => [name, formatCount(e.series), formatCount(e.atZero), [...e.keys].join(', ') + (e.attributed ? ' + attribution' : '')]);
  const attribution = ATTRIBUTION_KEYS.filter((key) => values.has(key)).map((key) => `  ${key}: ${[...(values.get(key) ?? [])].sort().join(', ')}`);
  // The canary's out-of-set refunds, where the run has them: every kind of attribute at once.
  const example = series.find((s) => !s.atZero && s.attributes['tool'] === 'refund_order' && s.attributes['in_set'] === 'false' && s.attributes['gen_ai.request.model'] === MODELS.canary.model)
    ?? series.find((s) => !s.atZero);
  const lines = [
    `Series the backend receives: ${formatCount(series.length)} under ${formatCount(names.size)} names. ${formatCount(series.length - atZero)} have counted something`,
    `or are gauges; ${formatCount(atZero)} ${atZero === 1 ? 'is a counter' : 'are counters'} still at zero, exported from start-up so that rate()`,
    'sees a series before its first count (docs/telemetry.md, "What exists at start-up"). No',
    'emitted value is ever an attribute. In Prometheus, counters carry the _total suffix.',
    ...alignColumns([['name', 'series', 'at zero', 'attributes'], ...rows], [false, true, true, false]).map((l) => `  ${l}`),
  ];
  if (attribution.length > 0) lines.push('Attribution values on the call-level series (where the instrumentation knew them):', ...attribution);
  if (example) {
    const attributes = Object.entries(example.attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    lines.push('One of them in full:', `  ${example.name}{${attributes.join(', ')}}`);
  }
  return lines;
} // prettier-ignore

/** Below this many checks on a line, the side-by-side section says what one call weighs. */
const FEW_CHECKS = 200;

/** `6.2 %` for a line, `–` for one without checks. */
const rateOf = (checks: number, outOfSet: number): string =>
  checks === 0 ? '–' : formatPercent(outOfSet / checks);

/** One change rolled out to part of the traffic: its lines beside the aggregate, and how to read them. */
function renderSplit(split: SplitFigures, names: (value: string) => string, reading: string): string[] {
  const rows = split.rows.map((r) => [`${split.attribute}=${r.value}`, names(r.value), formatCount(r.checks), rateOf(r.checks, r.outOfSet)]);
  rows.push(['aggregate', '', formatCount(split.aggregate.checks), rateOf(split.aggregate.checks, split.aggregate.outOfSet)]);
  const fewest = Math.min(...split.rows.map((r) => r.checks));
  // A short run gives a line few checks: say what one call weighs there.
  const note = fewest < FEW_CHECKS ? [`  (${formatCount(fewest)} checks on the smallest line: one call there is ${formatPoints(1 / fewest)}; a longer run reads closer to the story's rates.)`] : [];
  return [
    `${split.label}:`,
    ...alignColumns([['series', '', 'checks', 'out of set'], ...rows], [false, false, true, true]).map((l) => `  ${l}`),
    `  ${reading}`,
    ...note,
  ];
} // prettier-ignore

/**
 * The two partial rollouts of the story, each read on its own lines: the
 * description rewrite by `tool_definition`, the provider canary by
 * `gen_ai.request.model`, beside the aggregate a dashboard would show.
 */
export function renderSideBySide(figures: Pick<DemoFigures, 'sideBySide' | 'definitions'>): string[] {
  const { rollout, canary } = figures.sideBySide;
  if (!rollout && !canary) return [];
  const lines = ['Side by side (refund_order.reason_code out of set, by attribution, beside the aggregate)'];
  if (rollout) {
    const listing = (hash: string): string | undefined => figures.definitions.find((d) => d.toolDefinition === hash)?.listing;
    const named = (hash: string): string => (listing(hash) === undefined ? '' : `${listing(hash)} description`);
    const line = (name: string) => rollout.rows.find((r) => listing(r.value) === name);
    const [before, after] = [line('original'), line('rewritten')];
    const reading = before && after
      ? `The rewrite's effect on its own line, while the rollout runs: ${rateOf(before.checks, before.outOfSet)} on the original description, ${rateOf(after.checks, after.outOfSet)} on the rewritten one; the aggregate shows ${rateOf(rollout.aggregate.checks, rollout.aggregate.outOfSet)}.`
      : 'Each tool definition has its own line.';
    lines.push(...renderSplit(rollout, named, reading));
  }
  if (canary) {
    const model = (name: string) => canary.rows.find((r) => r.value === name);
    const [old, next] = [model(MODELS.current.model), model(MODELS.canary.model)];
    let reading = 'Each model has its own line.';
    if (old && next) {
      const times = old.outOfSetRate > 0 ? ` (${(next.outOfSetRate / old.outOfSetRate).toFixed(1)}×)` : '';
      // Points between the two rates as printed, so that the sentence adds up as read.
      const points = (Math.round(canary.aggregate.outOfSetRate * 1000) - Math.round((canary.before ?? 0) * 1000)) / 1000;
      const moved = canary.before === undefined ? '' : `; the aggregate went from ${formatPercent(canary.before)} before the canary to ${formatPercent(canary.aggregate.outOfSetRate)} (${points < 0 ? '' : '+'}${formatPoints(points)})`;
      reading = `${next.value} is out of set ${rateOf(next.checks, next.outOfSet)} against ${old.value}'s ${rateOf(old.checks, old.outOfSet)}${times}${moved}: read the canary on its own line, not the aggregate.`;
    }
    lines.push(...renderSplit(canary, (value) => (value === MODELS.canary.model ? 'canary' : value === MODELS.current.model ? 'current' : ''), reading));
  }
  return lines;
} // prettier-ignore

/** `reject` mode: each tool's first refused call, the message the model read, and its retry. */
export function renderRepairExamples(examples: readonly RepairExample[]): string[] {
  if (examples.length === 0) return [];
  const lines = ['Repair messages, as the model read them (the first refused call of each tool)'];
  for (const e of examples) {
    lines.push(
      `${e.tool} (call ${formatCount(e.call + 1)}, ${modelOf(e.route).model})`,
      `  sent     ${JSON.stringify(e.sent)}`,
      `  answer   ${e.message}`,
      `  retried  ${JSON.stringify(e.retried)}: ${e.retryAccepted ? 'went through' : 'refused again'}`,
    );
  }
  return lines;
}
