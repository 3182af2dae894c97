/** Number formatting shared by the text and markdown renderers (and the demo's table). */

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1 file`, `2 files`, `1,200 check records`. */
export function plural(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/** A ratio in [0, 1] as a percentage with one decimal: `0.062` → `6.2 %`. */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** A difference of two ratios in percentage points: `0.017` → `1.7 pts`. */
export function formatPoints(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} pts`;
}

/**
 * Pads cells into aligned columns; `right` marks numeric columns; `minWidths`
 * keeps a redrawn table from shifting as its numbers grow. Cells are measured
 * in code points, which is right for the text this prints.
 */
export function alignColumns(
  rows: readonly (readonly string[])[],
  right: readonly boolean[],
  minWidths: readonly number[] = [],
): string[] {
  const widths: number[] = [...minWidths];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - [...cell].length);
        return right[i] ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** Whether a value was in the set: every time, never, or a share (the set changed meanwhile). */
export function formatInSet(inSetCount: number, count: number): string {
  if (inSetCount === count) return 'yes';
  if (inSetCount === 0) return 'no';
  return `partly (${formatPercent(inSetCount / count)})`;
}
