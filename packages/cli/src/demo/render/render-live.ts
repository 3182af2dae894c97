import { alignColumns, formatCount, formatPercent, formatPoints } from '../../report/format.js';
import { rate } from '../telemetry/argument-figures.js';
import type { LiveFrame, LiveRow } from './live-frame.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function renderProgress(frame: LiveFrame, width = 30): string {
  const filled = Math.round(frame.progress * width);
  const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
  const percent = `${Math.floor(frame.progress * 100)}`.padStart(3);
  const time = `${seconds(frame.elapsedMs)} / ${seconds(frame.durationMs)}`;
  return `${bar} ${percent} %  ${time}  ▸ ${frame.phaseLabel}`;
}

/** Out of set over the checks that ran; unavailable checks are not in the denominator. */
function argumentCells(row: LiveRow, showRewritten: boolean): string[] {
  const { total, window } = row;
  const cells = [
    `  ${row.argument}`,
    formatCount(total.checks + total.unavailable),
    formatPercent(rate(total.outOfSet, total.checks)),
    window.checks === 0 ? '–' : formatPercent(rate(window.outOfSet, window.checks)),
    formatPercent(rate(total.outOfSetNormalised, total.checks)),
    formatPoints(rate(total.outOfSet - total.outOfSetNormalised, total.checks)),
    formatCount(total.unavailable),
    '',
  ];
  if (showRewritten) cells.splice(7, 0, formatCount(total.rewritten));
  return cells;
}

/** Calls, rates and counters per tool and argument. */
export function renderTable(frame: LiveFrame): string[] {
  const header = ['tool / argument', 'calls', 'out of set', 'now', 'normalised', 'tax', 'unavailable', 'repairs'];
  if (frame.showRewritten) header.splice(7, 0, 'rewritten');
  const rows: string[][] = [header];
  for (const tool of frame.tools) {
    const toolRow = [tool.tool, formatCount(tool.calls), '', '', '', '', '', formatCount(tool.repairs)];
    if (frame.showRewritten) toolRow.splice(7, 0, '');
    rows.push(toolRow);
    for (const row of frame.rows) if (row.tool === tool.tool) rows.push(argumentCells(row, frame.showRewritten));
  }
  // Wide enough for 100.0 %, 10.0 pts and six-digit counts, so redraws do not shift.
  const widths = [24, 7, 10, 7, 10, 8, 11, 9, 7];
  if (!frame.showRewritten) widths.splice(7, 1);
  return alignColumns(rows, [false, ...header.slice(1).map(() => true)], widths);
} // prettier-ignore

export function renderValueSets(frame: LiveFrame): string[] {
  const rows = frame.valueSets.map((set) => [
    set.name,
    set.state,
    formatCount(set.size),
    set.ageSeconds === undefined ? '–' : `${set.ageSeconds.toFixed(1)} s`,
    set.owner,
  ]);
  return alignColumns(
    [['value set', 'state', 'members', 'age', 'owner answered'], ...rows],
    [false, false, true, true, false],
  );
}

/** The whole live display, for a terminal that can redraw it in place. */
export function renderFrame(frame: LiveFrame): string[] {
  return [
    frame.title,
    renderProgress(frame),
    '',
    ...renderTable(frame),
    '',
    ...renderValueSets(frame),
  ];
}

/** The argument the story is told by, headline of the plain progress line. */
const HEADLINE = { tool: 'refund_order', argument: 'reason_code' };

/**
 * One short line per tick for logs and pipes (under 100 characters):
 * progress, the headline argument's out-of-set
 * rate now and since the start, and the checks that could not run. Story
 * events have lines of their own; every argument is in the final table.
 */
export function renderOneLine(frame: LiveFrame): string {
  const row = frame.rows.find((r) => r.tool === HEADLINE.tool && r.argument === HEADLINE.argument) ?? frame.rows[0];
  const percent = `${Math.floor(frame.progress * 100)}`.padStart(3);
  const head = `${percent} % ${seconds(frame.elapsedMs).padStart(8)}`;
  if (row === undefined) return head;
  const now = row.window.checks === 0 ? '–' : formatPercent(rate(row.window.outOfSet, row.window.checks));
  const overall = formatPercent(rate(row.total.outOfSet, row.total.checks));
  const unavailable = frame.rows.reduce((sum, r) => sum + r.total.unavailable, 0);
  return `${head}  ${row.argument} out of set ${now} now, ${overall} overall · ${formatCount(unavailable)} checks unavailable`;
} // prettier-ignore
