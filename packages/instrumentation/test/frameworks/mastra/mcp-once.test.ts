import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../../src/semconv.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { refundModel, toolResultSeen } from '../helpers/refund-model.js';

const require = createRequire(import.meta.url);
const server = fileURLToPath(new URL('../../mcp/fixtures/stdio-shop-v2.js', import.meta.url));

interface McpClient {
  listTools(): Promise<Record<string, unknown>>;
  disconnect(): Promise<void>;
}
interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
}

/** Sets derived from the MCP tool's schema, under the name Mastra gives it (`<server>_<tool>`). */
const series = (inSet: boolean, normalised: boolean) => ({
  tool: 'shop_refund_order',
  argument: 'reason_code',
  set: 'mastra:shop_refund_order.reason_code',
  in_set: String(inSet),
  in_set_normalised: String(normalised),
});

describe(`Mastra — a tool from @mastra/mcp, with its MCP client patched too (${NODE_22_REASON})`, function () {
  this.timeout(60_000);
  let h: Harness;
  let dir: string;
  let mcp: McpClient | undefined;

  before(function () {
    skipBelowNode22(this, '@mastra/core');
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'argcheck-mastra-'));
  });
  afterEach(async () => {
    await mcp?.disconnect();
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks and counts each call once, in the Mastra layer; the server gets the rewritten call only', async () => {
    // Both @mastra/core and @mastra/mcp's own @modelcontextprotocol/client are patched on require.
    h = harness({ mode: 'reject', logSampleRatio: 0, mcp: { enabled: true } });
    const { MCPClient } = require('@mastra/mcp') as {
      MCPClient: new (options: object) => McpClient;
    };
    const { Agent } = require('@mastra/core/agent') as {
      Agent: new (config: object) => MastraAgent;
    };
    const record = join(dir, 'received.jsonl');
    mcp = new MCPClient({
      id: 'argcheck-test',
      servers: {
        shop: {
          command: process.execPath,
          args: [server],
          env: { ...process.env, ARGCHECK_RECORD_FILE: record },
        },
      },
    });
    const tools = await mcp.listTools();
    const seen: unknown[] = [];
    for (const code of ['CUSTOMER_UNHAPPY', 'damaged']) {
      const { model, prompts } = await refundModel(code, 'shop_refund_order', 'v3');
      const agent = new Agent({ id: 'support', name: 'support', instructions: 'x', model, tools });
      await agent.generate('refund', { maxSteps: 2 });
      seen.push(toolResultSeen(prompts));
    }
    const received = readFileSync(record, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as unknown);
    expect(received).to.deep.equal([
      { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } },
    ]);
    const [invented, variant] = seen as { type: string; value: { error?: boolean } }[];
    expect(invented?.value.error).to.equal(true);
    expect(variant?.type).to.equal('json');
    expect(variant?.value.error).to.equal(undefined);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: series(false, false), value: 1 },
      { attributes: series(false, true), value: 1 },
    ]);
  });
});
