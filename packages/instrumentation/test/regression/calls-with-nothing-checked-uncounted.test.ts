/**
 * Regression: nothing counted the calls argcheck saw but had nothing to
 * check, nor an MCP call made before its server's tools were listed, so
 * "argcheck is running and most calls have no enumerable argument" looked
 * like "argcheck is not running". `tool_argument_call` counts every call an
 * integration sees, by coverage; a tool name that is neither configured nor
 * listed counts under `_other`.
 */
import { expect } from 'chai';
import { functionValueSet } from '@argcheck/core';
import {
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSources, series } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { REASON_SET } from '@argcheck/testing/shop';
import { sdkV1InMemory } from '@argcheck/testing/shop';

const call = (tool: string, integration: string, coverage: string, value: number) => ({
  attributes: { [ATTR_TOOL]: tool, [ATTR_INTEGRATION]: integration, [ATTR_COVERAGE]: coverage },
  value,
});

describe('regression: calls with nothing checked were not counted', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('a dispatcher: checked, unavailable, none, and a tool nobody configured under _other', async () => {
    h = harness({
      valueSets: {
        ...refundSources(),
        broken: functionValueSet(() => Promise.reject(new Error('owner down'))),
      },
      checkedArguments: { ...REFUND_ARGUMENTS, create_ticket: { component_id: 'broken' } },
      clock: new ManualClock(),
    });
    await h.inst.ready();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    h.inst.check('refund_order', { order_id: 'o-1' });
    h.inst.check('create_ticket', { component_id: 'billing-api' });
    h.inst.check('search_docs', { query: 'refund policy' });
    h.inst.check('model_invented_tool', {});
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal([
      call('_other', 'dispatcher', 'none', 2),
      call('create_ticket', 'dispatcher', 'unavailable', 1),
      call('refund_order', 'dispatcher', 'checked', 1),
      call('refund_order', 'dispatcher', 'none', 1),
    ]);
  });

  it('an MCP call before listTools is counted as unlisted, starts the listing, and the next call is checked', async () => {
    h = harness({ clock: new ManualClock() });
    const shop = await sdkV1InMemory.connect({ instrument: (c) => h.inst.instrumentMcpClient(c) });
    try {
      const refund = { order_id: 'o-1', reason_code: 'INVENTED' };
      await shop.client.callTool({ name: 'refund_order', arguments: refund });
      await h.inst.ready();
      await shop.client.callTool({ name: 'refund_order', arguments: refund });
      await shop.client.callTool({
        name: 'create_ticket',
        arguments: { title: 't', component_id: 'x' },
      });
      const collected = await h.collect();
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal([
        call('_other', 'mcp', 'unlisted', 1),
        call('create_ticket', 'mcp', 'none', 1),
        call('refund_order', 'mcp', 'checked', 1),
      ]);
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
        {
          attributes: series('refund_order', 'reason_code', REASON_SET, inSet(false, false)),
          value: 1,
        },
      ]);
    } finally {
      await shop.close();
    }
  });
});
