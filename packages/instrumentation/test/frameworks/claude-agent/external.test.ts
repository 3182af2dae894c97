/**
 * An external MCP server: the shop on stdio, started by the SDK's binary
 * itself, so its calls go binary → server and never through this process.
 * The hook still sees each of them first.
 */
import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import { stdioShop } from '@argcheck/testing/shop';
import {
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
} from '../../../src/semconv.js';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { CALLS, countersOf, expectedCounters, repairMessage } from '../refund-scenario.js';
import {
  denyReason,
  drain,
  offline,
  requireSdk,
  skipWithoutSdk,
  unlessSdk,
} from './helpers/sdk.js';

describe(`Claude Agent SDK — an external stdio server the binary starts${unlessSdk()}`, function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  before(function () {
    skipWithoutSdk(this);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('reject: the server never receives the invented value; the model reads the legal values; each call counted once', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const sdk = requireSdk();
    const shop = stdioShop('v1', { open: true });
    const run = await offline([
      {
        toolUses: CALLS.map((c) => ({ id: c.id, name: 'mcp__ext__refund_order', input: c.args })),
      },
      { text: 'done' },
    ]);
    try {
      await drain(
        sdk.query({
          prompt: 'Refund the three orders.',
          options: run.options({
            mcpServers: {
              ext: { type: 'stdio', command: shop.command, args: shop.args, env: shop.env },
            },
            allowedTools: ['mcp__ext__refund_order'],
          }),
        }),
      );
      expect(run.api.offeredTools()).to.include('mcp__ext__refund_order');
      // The binary may run the calls concurrently: compare them in order of their orders.
      const received = shop
        .received()
        .sort((a, b) => JSON.stringify(a.arguments).localeCompare(JSON.stringify(b.arguments)));
      expect(received).to.deep.equal([
        { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } },
        { name: 'refund_order', arguments: { order_id: 'o-2', reason_code: 'DAMAGED' } },
      ]);
      const read = run.api.toolResults()['call-3'];
      expect(read?.isError).to.equal(true);
      expect(denyReason(read?.text ?? '')).to.equal(await repairMessage());
      const collected = await h.collect();
      expect(countersOf(collected)).to.deep.equal(expectedCounters('reject'));
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal([
        {
          attributes: {
            [ATTR_TOOL]: 'refund_order',
            [ATTR_INTEGRATION]: 'claude_agent',
            [ATTR_COVERAGE]: 'checked',
          },
          value: 3,
        },
      ]);
    } finally {
      await run.close();
      shop.remove();
    }
  });
});
