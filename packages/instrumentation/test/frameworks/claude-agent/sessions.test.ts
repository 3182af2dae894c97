/**
 * The Claude Agent SDK's other ways in and what an application adds: its own
 * `PreToolUse` hook and `canUseTool` next to argcheck's, the explicit entry
 * point on a patched SDK, and a spare process (`prewarm`, in the versions
 * that have it).
 */
import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import {
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
} from '../../../src/semconv.js';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import {
  CALLS,
  countersOf,
  expectedAnswers,
  expectedCounters,
  expectedReceived,
  repairMessage,
  toolAnswer,
} from '../refund-scenario.js';
import type { ClaudeAgentSdk } from './helpers/sdk.js';
import {
  denyReason,
  drain,
  offline,
  requireSdk,
  skipWithoutSdk,
  unlessSdk,
  zod,
} from './helpers/sdk.js';

const REFUND = 'mcp__shop__refund_order';

/** The shop's `refund_order`, recording the reason code it received per order. */
function shopServer(sdk: ClaudeAgentSdk, received: Record<string, string>): object {
  const z = zod();
  return sdk.createSdkMcpServer({
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
}

const TURNS = [
  { toolUses: CALLS.map((c) => ({ id: c.id, name: REFUND, input: c.args })) },
  { text: 'done' },
];

const calls = (value: number) => [
  {
    attributes: {
      [ATTR_TOOL]: 'refund_order',
      [ATTR_INTEGRATION]: 'claude_agent',
      [ATTR_COVERAGE]: 'checked',
    },
    value,
  },
];

describe(`Claude Agent SDK — the application’s hooks, both entry points, a spare process${unlessSdk()}`, function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  before(function () {
    skipWithoutSdk(this);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('normalise, patched and explicit at once: the application’s hook sees the model’s input, canUseTool the rewritten one, and each call counts once', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'normalise',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const sdk = requireSdk();
    const received: Record<string, string> = {};
    const hooked: unknown[] = [];
    const asked: unknown[] = [];
    const run = await offline(TURNS);
    try {
      const options = h.inst.claudeAgentOptions(
        run.options({
          mcpServers: { shop: shopServer(sdk, received) },
          // Not in allowedTools: every call goes through canUseTool.
          canUseTool: (_name: string, input: Record<string, unknown>) => {
            asked.push(input);
            return Promise.resolve({ behavior: 'allow', updatedInput: input });
          },
          hooks: {
            PreToolUse: [
              {
                matcher: 'mcp__.*',
                hooks: [
                  (input: { tool_input: unknown }) => {
                    hooked.push(input.tool_input);
                    return Promise.resolve({});
                  },
                ],
              },
            ],
          },
        }),
      );
      await drain(sdk.query({ prompt: 'Refund the three orders.', options }));
      const byOrder = (list: unknown[]) =>
        Object.fromEntries(
          list.map((a) => {
            const { order_id, reason_code } = a as { order_id: string; reason_code: string };
            return [order_id, reason_code];
          }),
        );
      expect(byOrder(hooked)).to.deep.equal(expectedReceived('observe'));
      expect(byOrder(asked)).to.deep.equal(expectedReceived('normalise'));
      expect(received).to.deep.equal(expectedReceived('normalise'));
      const collected = await h.collect();
      expect(countersOf(collected)).to.deep.equal(expectedCounters('normalise'));
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(calls(3));
    } finally {
      await run.close();
    }
  });

  it('reject, through prewarm() and the claim: the spare’s session is checked', async function () {
    const sdk = requireSdk();
    if (sdk.prewarm === undefined) {
      this.test!.title += ' (skipped: this version of the SDK has no prewarm)';
      this.skip();
    }
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const received: Record<string, string> = {};
    const run = await offline(TURNS);
    try {
      const options = run.options({
        mcpServers: { shop: shopServer(sdk, received) },
        allowedTools: [REFUND],
      });
      const spare = await sdk.prewarm({ options });
      try {
        await drain(
          spare.claim({ prompt: 'Refund the three orders.', options: { cwd: options.cwd } }),
        );
      } finally {
        spare.close();
      }
      const results = run.api.toolResults();
      const answers = Object.fromEntries(
        CALLS.map((c) => [c.id, denyReason(results[c.id]?.text ?? '(no result)')]),
      );
      expect(received).to.deep.equal(expectedReceived('reject'));
      expect(answers).to.deep.equal(expectedAnswers('reject', await repairMessage()));
      const collected = await h.collect();
      expect(countersOf(collected)).to.deep.equal(expectedCounters('reject'));
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(calls(3));
    } finally {
      await run.close();
    }
  });
});
