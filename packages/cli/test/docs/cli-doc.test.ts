import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runCli } from '../../src/cli.js';
import { DEMO_HELP } from '../../src/demo/demo-args.js';
import { ExitCode } from '../../src/io.js';
import { REPORT_HELP } from '../../src/report/report-command.js';
import { captureIo } from '../helpers/capture-io.js';
import { CLI_DOC, exampleBlock } from '../helpers/markdown-block.js';
import { useTempDir } from '../helpers/temp-dir.js';

describe('docs/cli.md', () => {
  const dir = useTempDir();

  it('shows the report example with the output the command prints', async () => {
    const file = dir.path('sample.jsonl', exampleBlock(CLI_DOC, 'report-input'));
    const io = captureIo();
    expect(await runCli(['report', file], io)).to.equal(0);
    expect(io.out()).to.equal(exampleBlock(CLI_DOC, 'report-output'));
    expect(io.err()).to.match(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: skipped: not JSON \\(`),
    );
  });

  it('documents every option of both commands and every exit code', () => {
    const doc = readFileSync(CLI_DOC, 'utf8');
    const flags = [...`${DEMO_HELP}\n${REPORT_HELP}`.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
    expect(flags.filter((flag) => !doc.includes(`\`${flag}`))).to.deep.equal([]);
    const codes = Object.values(ExitCode).filter((code) => !doc.includes(`| ${code} `));
    expect(codes).to.deep.equal([]);
  });
});
