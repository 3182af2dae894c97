import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Run the ESM probe in its own Node process (loader hooks cannot be added to a running one). */
async function probe(nodeArgs: string[]): Promise<Record<'v1' | 'v2', unknown>> {
  const { stdout } = await run(process.execPath, [...nodeArgs, fixture('esm-probe.js')], {
    timeout: 30_000,
  });
  return JSON.parse(stdout) as Record<'v1' | 'v2', unknown>;
}

const rejectedOnce = (wrapped: boolean) => ({
  wrapped,
  checks: [['refund_order', 'derived', 'reject']],
  isError: true,
  received: [],
});

/** SDK 1.x also has `experimental.tasks.callToolStream`: the same call, streamed, is rejected once. */
const rejectedOnceAndStreamed = (wrapped: boolean) => ({
  ...rejectedOnce(wrapped),
  stream: {
    wrapped,
    checks: [['refund_order', 'derived', 'reject']],
    messages: [['result', true]],
  },
});

describe('auto-patching — ESM builds in a child process', function () {
  this.timeout(60_000);

  it('with module.register(hook.mjs) in an --import file, both ESM clients are patched on import', async () => {
    const out = await probe(['--import', fixture('esm-register.js')]);
    expect(out).to.deep.equal({ v1: rejectedOnceAndStreamed(true), v2: rejectedOnce(true) });
  });

  it('without loader hooks nothing is patched, and instrumentClient covers the clients', async () => {
    const out = await probe([]);
    expect(out).to.deep.equal({ v1: rejectedOnceAndStreamed(false), v2: rejectedOnce(false) });
  });
});
