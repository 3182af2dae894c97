import { expect } from 'chai';
import {
  ATTR_ARGUMENT,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  ATTR_VALUE,
  ATTR_VALUE_TRUNCATED,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { REASON_SET } from '@argcheck/testing/shop';
import { clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`ToolArgumentInstrumentation log records from MCP calls — ${line.name}`, () => {
    let h: Harness;
    afterEach(() => h.close());

    it('carry the ids from _meta, else the conversationId option, on a whole attribute object', async () => {
      h = harness({ logSampleRatio: 1, conversationId: () => 'from-option' });
      const connection = await line.connect({ instrument: (c) => h.inst.instrumentMcpClient(c) });
      try {
        await connection.client.listTools();
        await connection.client.callTool({
          name: 'refund_order',
          arguments: { order_id: 'o-1', reason_code: 'late' },
          _meta: { 'gen_ai.conversation.id': 'conv-7', 'gen_ai.tool.call.id': 'call-3' },
        });
        await connection.client.callTool({
          name: 'refund_order',
          arguments: { order_id: 'o-2', reason_code: 'LATE' },
        });
      } finally {
        await connection.close();
      }
      const series = {
        [ATTR_TOOL]: 'refund_order',
        [ATTR_ARGUMENT]: 'reason_code',
        [ATTR_SET]: REASON_SET,
      };
      expect(h.records()).to.deep.equal([
        {
          eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
          attributes: {
            ...series,
            [ATTR_IN_SET]: 'false',
            [ATTR_IN_SET_NORMALISED]: 'true',
            [ATTR_SHAPE]: 'case',
            [ATTR_VALUE]: 'late',
            [ATTR_VALUE_TRUNCATED]: 'false',
            [ATTR_GEN_AI_CONVERSATION_ID]: 'conv-7',
            [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-3',
          },
        },
        {
          eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
          attributes: {
            ...series,
            [ATTR_IN_SET]: 'true',
            [ATTR_IN_SET_NORMALISED]: 'true',
            [ATTR_VALUE]: 'LATE',
            [ATTR_VALUE_TRUNCATED]: 'false',
            [ATTR_GEN_AI_CONVERSATION_ID]: 'from-option',
          },
        },
      ]);
    });
  });
}
