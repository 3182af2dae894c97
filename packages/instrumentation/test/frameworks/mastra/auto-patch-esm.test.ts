import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { REFUNDS } from '../../helpers/fixtures.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { mastraHasToolHooks } from './tool-hooks.js';

const run = promisify(execFile);
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** Run the Mastra probe in its own Node process, with the configured refund set (a hook sees no schema). */
async function probe(nodeArgs: string[], args: string[] = []): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [...nodeArgs, fixture('mastra-probe.js'), ...args],
    { timeout: 60_000, env: { ...process.env, ARGCHECK_PROBE_CONFIGURED: '1' } },
  );
  return JSON.parse(stdout);
}

const series = (inSet: boolean, normalised: boolean) => ({
  tool: 'refund_order',
  argument: 'reason_code',
  set: REFUNDS,
  in_set: String(inSet),
  in_set_normalised: String(normalised),
});

/** Reject mode: the invented code is answered with the repair message, the variant runs rewritten; each counted once. */
const expected = (patched: boolean) => ({
  patched,
  received: [{ order_id: 'o-1', reason_code: 'DAMAGED' }],
  seen: ['repair message', { type: 'json', value: { refunded: true } }],
  checks: [
    { attributes: series(false, false), value: 1 },
    { attributes: series(false, true), value: 1 },
  ],
});

describe(`Mastra — the ESM build under the loader hook, and inst.mastraHooks() (${NODE_22_REASON})`, function () {
  this.timeout(120_000);
  let hooks = false;
  before(async function () {
    skipBelowNode22(this, '@mastra/core');
    hooks = await mastraHasToolHooks();
  });

  it('with module.register(hook.mjs) in an --import file, Agent.prototype.convertTools is patched on import', async () => {
    expect(await probe(['--import', fixture('ai-mastra-register.js')])).to.deep.equal(
      expected(true),
    );
  });

  it('without loader hooks, inst.mastraHooks() checks the same calls', async function () {
    if (!hooks) this.skip(); // a Mastra release without agent tool hooks
    expect(await probe([], ['--explicit'])).to.deep.equal(expected(false));
  });

  it('patched and hooked, each call still counts once', async function () {
    if (!hooks) this.skip(); // a Mastra release without agent tool hooks
    expect(
      await probe(['--import', fixture('ai-mastra-register.js')], ['--explicit']),
    ).to.deep.equal(expected(true));
  });
});
