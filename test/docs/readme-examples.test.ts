import { expect } from 'chai';
import { INSTRUMENT_ATTRIBUTES } from '@argcheck/instrumentation/semconv';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HttpOwner } from '@argcheck/testing/owners';
import { exampleBlock } from '../helpers/markdown.js';
import { repoRoot } from '../helpers/repo.js';

const run = promisify(execFile);

describe('README examples', () => {
  const owner = new HttpOwner();
  let origin: string;

  before(async () => {
    await owner.start();
    owner.json('/v1/reason-codes', ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE']);
    origin = owner.origin;
  });

  after(() => owner.close());

  it('the dispatcher example runs against a real owner and reports the invented code', async () => {
    // The only edit: the owner's host becomes a loopback server.
    const code = exampleBlock(join(repoRoot, 'README.md'), 'dispatcher').replace(
      'http://refunds.internal',
      origin,
    );
    const dir = join(repoRoot, 'build/test/docs/examples');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'readme-dispatcher.mjs');
    writeFileSync(file, code);
    const { stdout } = await run(process.execPath, [file], { cwd: repoRoot });
    expect(stdout).to.equal('reason_code: invented\n');
    expect(owner.requests.map((r) => r.path)).to.deep.equal(['/v1/reason-codes']);
  });
});

describe('README stays in step with the package READMEs', () => {
  const rootReadme = join(repoRoot, 'README.md');
  const instrumentationReadme = join(repoRoot, 'packages/instrumentation/README.md');

  it('shows the NodeSDK example exactly as the tested one in the instrumentation README', () => {
    expect(exampleBlock(rootReadme, 'nodesdk')).to.equal(
      exampleBlock(instrumentationReadme, 'nodesdk'),
    );
  });

  it('lists the same instruments as the instrumentation README telemetry table', () => {
    const instruments = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/^\| `(tool_argument_[a-z_]+)` +\|/gm)]
        .map((m) => m[1])
        .sort();
    const listed = instruments(rootReadme);
    expect(listed).to.deep.equal(Object.keys(INSTRUMENT_ATTRIBUTES).sort());
    expect(listed).to.deep.equal(instruments(instrumentationReadme));
  });
});
