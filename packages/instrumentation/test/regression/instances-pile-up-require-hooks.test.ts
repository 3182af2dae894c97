/**
 * Regression: every instance hooked the 1.x MCP client files by absolute
 * path with hooks of its own (OpenTelemetry makes a require-in-the-middle
 * `Hook` per instrumentation for an absolute path, and never removes it), so
 * each instance wrapped `Module.prototype.require` once more for the life of
 * the process, and every `require` resolved its id once more. Hooks by
 * absolute path are now the process's, shared by every instance.
 *
 * In a child process: under mocha OpenTelemetry gives every instrumentation
 * a require hook of its own even for modules hooked by name, so a suite that
 * makes an instance per test piles them up whatever argcheck does (the
 * contract suite's Mastra loads overflowed the stack on Node 24 until the
 * absolute-path hooks were shared).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const exec = promisify(execFile);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

describe('regression: each instance wrapped require once more, for good', function () {
  this.timeout(30_000);
  it('twenty more instances leave Module.prototype.require as the first left it', async () => {
    const { stdout } = await exec(process.execPath, [here('./fixtures/require-wrappers.js')]);
    expect(JSON.parse(stdout)).to.deep.equal({ same: true });
  });
});
