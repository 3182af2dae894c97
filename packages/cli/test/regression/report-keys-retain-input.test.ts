import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { recordFigure } from '@argcheck/testing/figures';

const CHILD = fileURLToPath(new URL('../helpers/retained-by-aggregator.js', import.meta.url));
const LINES = 100;

/** Heap the aggregator retains after counting LINES records with a distinct 200 KB `field`. */
function retained(field: 'value' | 'tool' | 'shape'): {
  retainedBytes: number;
  series: number;
  records: number;
} {
  const out = execFileSync(process.execPath, ['--expose-gc', CHILD, field, String(LINES)], {
    encoding: 'utf8',
  });
  return JSON.parse(out) as { retainedBytes: number; series: number; records: number };
}

/** The figure of the fault row on `field`: what the report retained of 20 MB of input. */
function record(row: string, field: string, r: ReturnType<typeof retained>): void {
  recordFigure(
    row,
    `${LINES} lines of distinct 200 KB ${field}: the report retains ${(r.retainedBytes / 1e6).toFixed(2)} MB (the input is 20 MB); ${r.series} series, ${r.records} records`,
  );
}

// What a kept key may cost: 256 characters, map entries and counters, with
// room for the heap's own noise. A key that keeps its 200 KB input string alive
// costs 200 KB per line: 20 MB here.
const BOUND_BYTES = 2 * 1024 * 1024;

describe('regression: argcheck report kept keys that retained whole input strings', function () {
  this.timeout(60_000);

  it('keeps 100 distinct 200 KB values as cut copies, not slices of the input', () => {
    const result = retained('value');
    expect(result.series).to.equal(1);
    expect(result.records).to.equal(LINES);
    expect(result.retainedBytes).to.be.below(BOUND_BYTES);
    record('report-value-slices', 'values', result);
  });

  it('keeps 100 distinct 200 KB tool names as cut copies, not the whole names', () => {
    const result = retained('tool');
    expect(result.series).to.equal(LINES);
    expect(result.retainedBytes).to.be.below(BOUND_BYTES);
    record('report-long-tool-names', 'tool names', result);
  });

  it('keeps 100 distinct 200 KB shape names as cut copies, not the whole names', () => {
    const result = retained('shape');
    expect(result.records).to.equal(LINES);
    expect(result.retainedBytes).to.be.below(BOUND_BYTES);
    record('report-shape-names', 'shape names', result);
  });
});
