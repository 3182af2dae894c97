// The Claude Agent SDK (ESM only) imported as an ES module, for the ESM probe
// (fixtures/esm-probe.ts): under the loader hook the import is patched. The
// reject run ("streamed" for the other frameworks) starts a warm query with
// startup(). A specifier in a variable: the SDK's types are not installed in
// the workspace.
import type { ProbeRun } from '../fixtures/esm-probe.js';
import { CALLS, toolAnswer } from '../refund-scenario.js';
import type { ClaudeAgentSdk } from './helpers/sdk.js';
import { CLAUDE_AGENT_SDK, denyReason, drain, offline, zod } from './helpers/sdk.js';

export const run: ProbeRun = async (h, { explicit, stream }) => {
  const sdk = (await import(CLAUDE_AGENT_SDK)) as ClaudeAgentSdk;
  const z = zod();
  const received: Record<string, string> = {};
  const shop = sdk.createSdkMcpServer({
    name: 'shop',
    tools: [
      sdk.tool(
        'refund_order',
        'Refund an order',
        { order_id: z.string(), reason_code: z.string() },
        (args) => {
          const a = args as { order_id: string; reason_code: string };
          received[a.order_id] = a.reason_code;
          return Promise.resolve({ content: [{ type: 'text', text: toolAnswer(a) }] });
        },
      ),
    ],
  });
  const session = await offline([
    { toolUses: CALLS.map((c) => ({ id: c.id, name: 'mcp__shop__refund_order', input: c.args })) },
    { text: 'done' },
  ]);
  try {
    const given = session.options({
      mcpServers: { shop },
      allowedTools: ['mcp__shop__refund_order'],
    });
    const options = explicit ? h.inst.claudeAgentOptions(given) : given;
    if (stream && sdk.startup !== undefined) {
      await drain((await sdk.startup({ options })).query('Refund the three orders.'));
    } else {
      await drain(sdk.query({ prompt: 'Refund the three orders.', options }));
    }
    const results = session.api.toolResults();
    const answers = Object.fromEntries(
      CALLS.map((c) => [c.id, denyReason(results[c.id]?.text ?? '(no result)')]),
    );
    return { received, answers };
  } finally {
    await session.close();
  }
};
