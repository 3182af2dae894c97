import type { ArgumentReport, Report } from '../types.js';
import {
  alignColumns,
  formatCount,
  formatInSet,
  formatPercent,
  formatPoints,
  plural,
} from './format.js';
import { printable } from './printable.js';

/** The shape of a value that was not a string: the record carries its JSON text. */
export const NOT_STRING = 'not_string';

/** Long model output would wreck the columns; the JSON format keeps the full value. */
const MAX_SHOWN_VALUE = 48;

/**
 * Strings quoted so that surrounding spaces and control characters stay
 * visible (` LATE ` is a shape); a value that was not a string (`not_string`)
 * as the JSON text it was logged as, so the number 42 reads `42`, not `"42"`.
 */
export function displayValue(value: string, shape?: string): string {
  const quoted = printable(shape === NOT_STRING ? value : JSON.stringify(value));
  return quoted.length <= MAX_SHOWN_VALUE ? quoted : `${quoted.slice(0, MAX_SHOWN_VALUE - 1)}…`;
}

export function inputLine(report: Report): string {
  const { input } = report;
  const records = report.arguments.reduce((sum, a) => sum + a.records + a.unchecked, 0);
  const files = plural(input.files.length, 'file');
  const notes = [
    `${plural(input.corruptLines, 'corrupt line')} skipped`,
    `${plural(input.ignoredRecords, 'other record')} ignored`,
  ];
  if (input.unreadableFiles.length > 0) notes.push(`${input.unreadableFiles.length} unreadable`);
  if (input.recordsOverSeriesCap > 0) {
    notes.push(`${formatCount(input.recordsOverSeriesCap)} records over the series cap`);
  }
  return `${plural(records, 'check record')} from ${files} (${notes.join(', ')})`;
}

function valueSection(a: ArgumentReport): string[] {
  const rows = a.values.map((row) => [
    displayValue(row.value, row.shape),
    formatCount(row.count),
    formatInSet(row.inSetCount, row.count),
    printable(row.shape ?? ''),
  ]);
  const lines = alignColumns([['value', 'count', 'in set', 'shape'], ...rows], [false, true]);
  const notes: string[] = [];
  if (a.valuesNotShown > 0) {
    notes.push(
      `${formatCount(a.distinctValues - a.values.length)} more values: ${formatCount(a.valuesNotShown)} records`,
    );
  }
  if (a.valuesOverCap > 0) {
    notes.push(
      `other (values beyond the distinct-value cap): ${formatCount(a.valuesOverCap)} records`,
    );
  }
  if (a.valuesNotCaptured > 0)
    notes.push(`value not captured: ${formatCount(a.valuesNotCaptured)} records`);
  return [
    `emitted values (top ${a.values.length} of ${formatCount(a.distinctValues)})`,
    ...lines,
    ...notes,
  ];
}

function shapeSection(a: ArgumentReport): string[] {
  if (a.outOfSet === 0) return ['no mismatches'];
  const rows = a.shapes.map((s) => [
    printable(s.shape),
    formatCount(s.count),
    formatPercent(s.shareOfMismatches),
    formatPercent(s.shareOfCalls),
  ]);
  rows.push(['total', formatCount(a.outOfSet), formatPercent(1), formatPercent(a.outOfSetRate)]);
  return alignColumns(
    [['mismatch shape', 'count', 'of mismatches', 'of calls'], ...rows],
    [false, true, true, true],
  );
}

/** The `--by` part of an argument's heading; a tool definition is named by its description. */
export function byText(a: ArgumentReport, report: Report): string {
  if (a.by === undefined) return '';
  const description = report.definitions?.find(
    (d) => d.tool === a.tool && d.toolDefinition === a.by?.value,
  )?.description;
  const named = description === undefined ? '' : ` ${displayValue(description)}`;
  return ` [${a.by.attribute}=${a.by.value}${named}]`;
}

function argumentSection(a: ArgumentReport, report: Report): string[] {
  const figures = alignColumns(
    [
      ['records', formatCount(a.records)],
      ['out of set', `${formatPercent(a.outOfSetRate)} (${formatCount(a.outOfSet)})`],
      [
        'after normalisation',
        `${formatPercent(a.normalisedRate)} (${formatCount(a.outOfSetNormalised)})`,
      ],
      ['formatting tax', formatPoints(a.formattingTax)],
      ...(a.unchecked > 0 ? [['not checked (set unavailable)', formatCount(a.unchecked)]] : []),
    ],
    [false, false],
  );
  const indent = (lines: string[]): string[] => lines.map((line) => `  ${line}`);
  return [
    printable(`${a.tool}.${a.argument} → ${a.set}${byText(a, report)}`),
    ...indent(figures),
    '',
    ...indent(valueSection(a)),
    '',
    ...indent(shapeSection(a)),
  ];
}

/** The report for a terminal. */
export function renderText(report: Report): string {
  const sections = report.arguments.map((a) => argumentSection(a, report).join('\n'));
  return [`argcheck report: ${inputLine(report)}`, ...sections].join('\n\n') + '\n';
}
