import { expect } from 'chai';
import { runCli } from '../../src/cli.js';
import type { Report } from '../../src/types.js';
import { captureIo } from '../helpers/capture-io.js';
import { plainLine } from '../helpers/log-lines.js';
import { useTempDir } from '../helpers/temp-dir.js';
import { recordFigure } from '@argcheck/testing/figures';

const LEVELS = 100_000;
const check = { in_set: 'true', in_set_normalised: 'true', value: 'DAMAGED' };

describe('regression: argcheck report parsed a line of any nesting depth', () => {
  const dir = useTempDir();

  it('refuses lines nested deeper than 64 levels by line number and counts the other lines', async () => {
    // A parsed line costs memory per level: one 60 MB line of brackets took 3.1 GB.
    const deepRecord = plainLine(check).replace(
      /}$/,
      `,"x":${'{"x":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}}`,
    );
    const deepArray = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
    const file = dir.path(
      'nested.jsonl',
      [plainLine(check), deepRecord, plainLine(check), deepArray, plainLine(check)].join('\n'),
    );
    const io = captureIo();
    const code = await runCli(['report', '--format', 'json', file], io);
    expect(code).to.equal(0);
    expect(io.err()).to.equal(
      `${file}:2: skipped: nested deeper than 64 levels\n` +
        `${file}:4: skipped: nested deeper than 64 levels\n`,
    );
    const report = JSON.parse(io.out()) as Report;
    expect(report.input).to.deep.equal({
      files: [file],
      unreadableFiles: [],
      lines: 5,
      corruptLines: 2,
      ignoredRecords: 0,
      recordsOverSeriesCap: 0,
    });
    expect(report.arguments.map((a) => a.records)).to.deep.equal([3]);
    recordFigure(
      'report-deep-nesting',
      `two lines nested ${LEVELS.toLocaleString('en-US')} deep among three records: “<file>:2: skipped: nested deeper than 64 levels” (and :4); ${report.arguments[0]?.records} of 3 records counted`,
    );
  });

  it('reads a line nested 64 levels deep and refuses one nested 65', async () => {
    const nested = (levels: number): string =>
      plainLine(check).replace(/}$/, `,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`);
    const file = dir.path('boundary.jsonl', `${nested(64)}\n${nested(65)}\n`);
    const io = captureIo();
    expect(await runCli(['report', '--format', 'json', file], io)).to.equal(0);
    expect(io.err()).to.equal(`${file}:2: skipped: nested deeper than 64 levels\n`);
    const report = JSON.parse(io.out()) as Report;
    expect(report.arguments.map((a) => a.records)).to.deep.equal([1]);
  });
});
