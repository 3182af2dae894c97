/**
 * Regression: `disable()` left clients wrapped by `instrumentMcpClient`
 * enforcing (and the other explicit entry points checking). Disabled, an
 * instrumentation switches off everything it wrapped or made; `enable()`
 * switches it back on.
 */
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { REASON_CODES } from '@argcheck/testing/shop';
import { sdkV1InMemory } from '@argcheck/testing/shop';
import type { ShopConnection } from '@argcheck/testing/shop';

describe('regression: disable() left explicit entry points enforcing', () => {
  let inst: ToolArgumentInstrumentation;
  let shop: ShopConnection;

  beforeEach(async () => {
    inst = new ToolArgumentInstrumentation({
      mode: 'reject',
      valueSets: { reasons: staticValueSet(REASON_CODES) },
      checkedArguments: { refund_order: { reason_code: 'reasons' } },
      mcp: { enabled: false, deriveValueSets: false },
      frameworks: { enabled: false },
    });
    await inst.ready();
    shop = await sdkV1InMemory.connect({ instrument: (c) => inst.instrumentMcpClient(c) });
  });
  afterEach(async () => {
    await shop.close();
    inst.disable();
    inst.close();
  });

  const invented = { order_id: 'o-1', reason_code: 'INVENTED' };

  it('an instrumented MCP client passes calls through while disabled, and enforces again once enabled', async () => {
    // Whether the call reached the server (the shop's own validation answers INVENTED with an error too).
    const reached = async () => {
      const before = shop.received().length;
      await shop.client.callTool({ name: 'refund_order', arguments: invented });
      return shop.received().length > before;
    };
    const seen = [await reached()];
    inst.disable();
    seen.push(await reached());
    inst.enable();
    seen.push(await reached());
    expect(seen).to.deep.equal([false, true, false]);
  });

  it('a Mastra hook and an Agents guardrail let calls through while disabled, and check again once enabled', async () => {
    const hooks = inst.mastraHooks();
    const guardrail = inst.openAIAgentsGuardrail();
    const answers = async () => [
      (
        hooks.beforeToolCall({ toolName: 'refund_order', input: invented, context: {} }) as {
          proceed?: boolean;
        } | void
      )?.proceed ?? true,
      (
        await guardrail.run({
          toolCall: { name: 'refund_order', arguments: JSON.stringify(invented), callId: 'c-1' },
        })
      ).behavior.type,
    ];
    const seen = [await answers()];
    inst.disable();
    seen.push(await answers());
    inst.enable();
    seen.push(await answers());
    expect(seen).to.deep.equal([
      [false, 'rejectContent'],
      [true, 'allow'],
      [false, 'rejectContent'],
    ]);
  });
});
