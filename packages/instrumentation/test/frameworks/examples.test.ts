import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { NODE_22_REASON, skipBelowNode22 } from './helpers/node-version.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The runnable examples of docs/frameworks.md, run from the repository as its README says. */
describe(`frameworks — examples/ run and assert their own expectations (${NODE_22_REASON})`, function () {
  this.timeout(120_000);
  before(function () {
    skipBelowNode22(this, 'ai');
  });

  for (const example of ['ai-sdk', 'mastra']) {
    it(`examples/${example}/main.mjs`, async () => {
      const { stdout } = await run(process.execPath, [`examples/${example}/main.mjs`], {
        cwd: root,
        timeout: 90_000,
      });
      expect(stdout.trim().split('\n').at(-1)).to.equal('ok');
    });
  }
});
