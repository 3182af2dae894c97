import { alignColumns, formatCount, formatPercent, formatPoints } from '../../report/format.js';
import type { ArgumentFigures, DemoFigures, PhaseFigures } from '../figures.js';
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

/** What a metrics backend holds: one series per name and attribute set; no emitted value anywhere. */
export function renderSeries(series: DemoFigures['series']): string[] {
  const lines: string[] = [];
  let name = '';
  for (const s of series) {
    if (s.name !== name) {
      name = s.name;
      lines.push(name);
    }
    const attributes = Object.entries(s.attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
    lines.push(`  {${attributes.join(', ')}}`);
  }
  return [
    `Series the backend receives (${series.length}: names and attribute sets; no emitted value`,
    'is ever an attribute. In Prometheus, counters carry the _total suffix.)',
    ...lines,
  ];
}
