import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';

const run = promisify(execFile);
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

/** Run the AI SDK probe in its own Node process (loader hooks cannot be added to a running one). */
async function probe(nodeArgs: string[], args: string[] = []): Promise<unknown> {
  const { stdout } = await run(process.execPath, [...nodeArgs, fixture('ai-probe.js'), ...args], {
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

const SET = 'ai-sdk:refund_order.reason_code';
const series = (inSet: boolean, normalised: boolean) => ({
  tool: 'refund_order',
  argument: 'reason_code',
  set: SET,
  in_set: String(inSet),
  in_set_normalised: String(normalised),
});

/**
 * Reject mode, sets derived from the tools' zod and MCP schemas: the invented
 * code never reaches the local tool or the server, the model reads the repair
 * message; the case variant reaches the server once, rewritten. Each call is
 * counted once, by the AI SDK layer, though the MCP client is patched too.
 */
const expected = (patched: boolean) => ({
  patched: { generateText: patched, mcpCallTool: patched },
  local: { received: [], seen: 'repair message' },
  mcp: {
    received: [{ name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } }],
    seen: [
      'repair message',
      { type: 'content', value: [{ type: 'text', text: 'ok:refund_order' }] },
    ],
  },
  checks: [
    { attributes: series(false, false), value: 2 },
    { attributes: series(false, true), value: 1 },
  ],
});

describe(`AI SDK — auto-patching under the ESM loader hook, and @ai-sdk/mcp underneath (${NODE_22_REASON})`, function () {
  this.timeout(120_000);
  before(function () {
    skipBelowNode22(this, 'ai');
  });

  it('with module.register(hook.mjs) in an --import file, generateText and createMCPClient are patched on import', async () => {
    expect(await probe(['--import', fixture('ai-mastra-register.js')])).to.deep.equal(
      expected(true),
    );
  });

  it('without loader hooks, inst.wrapAiSdkTools and inst.instrumentMcpClient check the same calls', async () => {
    expect(await probe([], ['--explicit'])).to.deep.equal(expected(false));
  });

  it('patched both ways, each call still counts once', async () => {
    expect(
      await probe(['--import', fixture('ai-mastra-register.js')], ['--explicit']),
    ).to.deep.equal(expected(true));
  });
});
