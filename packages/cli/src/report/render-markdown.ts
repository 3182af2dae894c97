import type { ArgumentReport, Report } from '../types.js';
import { formatCount, formatInSet, formatPercent, formatPoints } from './format.js';
import { printable } from './printable.js';
import { NOT_STRING, byText, inputLine } from './render-text.js';

/**
 * A JSON-quoted value (a `not_string` value as its JSON text) in a code span;
 * `|` is escaped because GFM splits cells on it even there.
 */
function code(value: string, shape?: string): string {
  const text = shape === NOT_STRING ? value : JSON.stringify(value);
  return span(printable(text).replaceAll('|', '\\|'));
}

/** `text` in a code span long enough that no backtick run inside it closes it. */
function span(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}

/** A shape in a table cell: a plain word as it is, anything else printable in a code span, `|` escaped. */
function name(text: string): string {
  if (/^[A-Za-z0-9_]+$/.test(text)) return text;
  return span(printable(text).replaceAll('|', '\\|'));
}

function table(header: string[], align: string[], rows: string[][]): string[] {
  return [header, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`);
}

function argumentSection(a: ArgumentReport, report: Report): string[] {
  const by = byText(a, report);
  const lines = [
    `## ${span(printable(`${a.tool}.${a.argument}`))} → ${span(printable(a.set))}${by === '' ? '' : ` ${span(printable(by.trim()))}`}`,
    '',
    ...table(
      ['records', 'out of set', 'after normalisation', 'formatting tax', 'not checked'],
      ['---:', '---:', '---:', '---:', '---:'],
      [
        [
          formatCount(a.records),
          formatPercent(a.outOfSetRate),
          formatPercent(a.normalisedRate),
          formatPoints(a.formattingTax),
          formatCount(a.unchecked),
        ],
      ],
    ),
    '',
    `### Emitted values (top ${a.values.length} of ${formatCount(a.distinctValues)})`,
    '',
    ...table(
      ['value', 'count', 'in set', 'shape'],
      ['---', '---:', '---', '---'],
      a.values.map((row) => [
        code(row.value, row.shape),
        formatCount(row.count),
        formatInSet(row.inSetCount, row.count),
        row.shape === undefined ? '' : name(row.shape),
      ]),
    ),
  ];
  const notes: string[] = [];
  if (a.valuesNotShown > 0)
    notes.push(`${formatCount(a.valuesNotShown)} records carry values not shown`);
  if (a.valuesOverCap > 0) {
    notes.push(
      `${formatCount(a.valuesOverCap)} records carry values beyond the distinct-value cap`,
    );
  }
  if (a.valuesNotCaptured > 0)
    notes.push(`${formatCount(a.valuesNotCaptured)} records carry no value`);
  if (notes.length > 0) lines.push('', `${notes.join('; ')}.`);
  lines.push('', '### Mismatch shapes', '');
  if (a.outOfSet === 0) return [...lines, 'No mismatches.'];
  return [
    ...lines,
    ...table(
      ['shape', 'count', 'share of mismatches', 'share of calls'],
      ['---', '---:', '---:', '---:'],
      [
        ...a.shapes.map((s) => [
          name(s.shape),
          formatCount(s.count),
          formatPercent(s.shareOfMismatches),
          formatPercent(s.shareOfCalls),
        ]),
        ['**total**', formatCount(a.outOfSet), formatPercent(1), formatPercent(a.outOfSetRate)],
      ],
    ),
  ];
}

/** The report as GitHub-flavoured markdown, for a ticket or a pull request. */
export function renderMarkdown(report: Report): string {
  const sections = report.arguments.map((a) => argumentSection(a, report).join('\n'));
  return ['# argcheck report', inputLine(report) + '.', ...sections].join('\n\n') + '\n';
}
