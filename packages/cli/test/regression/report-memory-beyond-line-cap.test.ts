// Issue 21, item 8: `argcheck report` memory was not bounded by its line cap.
// A 63 MB line `{"resourceLogs":[{"scopeLogs":[{"logRecords":[{},{},…]}]}]}`
// peaked at 2.1–2.3 GB (a 16 MB one at 660 MB): JSON.parse built an object per
// three characters. A line that opens more than one object or array per 12
// characters is now refused before it is parsed, in the same pass as the
// nesting check; real collector lines open one per 18 to 30. The peak is
// measured by bench/report-memory.ts (docs/benchmarks.md).
import { expect } from 'chai';
import { BYTES_PER_CONTAINER, FREE_CONTAINERS, parseLine } from '../../src/report/parse-line.js';
import { otlpCheck, otlpLine } from '../helpers/log-lines.js';
import { recordFigure } from '@argcheck/testing/figures';

const emptyRecords = (n: number) =>
  `{"resourceLogs":[{"scopeLogs":[{"logRecords":[${'{},'.repeat(n - 1)}{}]}]}]}`;

describe('regression: report memory was not bounded by the line cap', () => {
  it('refuses a line of 5 million empty records before parsing it', () => {
    const line = emptyRecords(5_000_000);
    const parsed = parseLine(line);
    expect(parsed).to.deep.equal({
      kind: 'corrupt',
      reason: `more than one object or array per ${BYTES_PER_CONTAINER} characters (not parsed)`,
    });
    recordFigure(
      'report-empty-records-line',
      `a ${(line.length / 1e6).toFixed(0)} MB line of 5,000,000 empty records: refused unparsed, “${parsed.kind === 'corrupt' ? parsed.reason : ''}”`,
    );
  });

  it('still reads a collector line of 2,000 records with short attributes', () => {
    const record = otlpCheck({ in_set: 'true', in_set_normalised: 'true', value: 'A' });
    const line = otlpLine(Array.from({ length: 2_000 }, () => record));
    const opened = (line.match(/[{[]/g) ?? []).length;
    expect(opened).to.be.above(FREE_CONTAINERS);
    expect(line.length / opened).to.be.above(BYTES_PER_CONTAINER);
    const parsed = parseLine(line);
    expect(parsed.kind).not.to.equal('corrupt');
  });

  it('never refuses a small line for its containers', () => {
    expect(parseLine(emptyRecords(1_000)).kind).not.to.equal('corrupt');
  });
});
