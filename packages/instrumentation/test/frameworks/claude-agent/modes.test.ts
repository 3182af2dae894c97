/**
 * The Claude Agent SDK from registration alone, in every mode: the real SDK
 * and its binary, an in-process MCP server (`createSdkMcpServer`), a scripted
 * Messages API on loopback. One query per mode, whose model calls the refund
 * scenario's three calls and one call of a tool whose zod enum becomes a
 * derived set.
 */
import { expect } from 'chai';
import type { CheckMode } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Point } from '@argcheck/testing/metrics';
import {
  ATTR_ARGUMENT,
  ATTR_COVERAGE,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_INTEGRATION,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
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
  MODES,
  repairMessage,
  toolAnswer,
} from '../refund-scenario.js';
import {
  denyReason,
  drain,
  offline,
  requireSdk,
  skipWithoutSdk,
  unlessSdk,
  zod,
} from './helpers/sdk.js';

// The server's key has a character the SDK's binary writes as `_` in its tools' names.
const REFUND = 'mcp__shop_v2__refund_order';
const PRIORITY = 'mcp__shop_v2__set_priority';
const PRIORITY_SET = `claude-agent:${PRIORITY}.level`;

/** The model's turn: the refund scenario, then a priority the enum does not have. */
const TOOL_USES = [
  ...CALLS.map((c) => ({ id: c.id, name: REFUND, input: c.args })),
  { id: 'call-4', name: PRIORITY, input: { ticket: 't-1', level: 'URGENT' } },
];

/** The derived set's points, added to the refund scenario's counters. */
function expectedWithDerived(mode: CheckMode): Record<string, Point[]> {
  const counters = expectedCounters(mode);
  const derived = { [ATTR_TOOL]: PRIORITY, [ATTR_ARGUMENT]: 'level', [ATTR_SET]: PRIORITY_SET };
  const add = (name: string, point: Point) => (counters[name] = [...(counters[name] ?? []), point]);
  add(METRIC_TOOL_ARGUMENT_VALUE_CHECK, {
    attributes: { ...derived, [ATTR_IN_SET]: 'false', [ATTR_IN_SET_NORMALISED]: 'false' },
    value: 1,
  });
  add(METRIC_TOOL_ARGUMENT_MISMATCH, {
    attributes: { ...derived, [ATTR_SHAPE]: 'invented' },
    value: 1,
  });
  if (mode === 'reject') {
    add(METRIC_TOOL_ARGUMENT_REPAIR_STARTED, { attributes: { [ATTR_TOOL]: PRIORITY }, value: 1 });
  }
  return sorted(counters);
}

/** Points in the order `pointsOf` gives them. */
function sorted(counters: Record<string, Point[]>): Record<string, Point[]> {
  const key = (p: Point) => JSON.stringify(p.attributes);
  return Object.fromEntries(
    Object.entries(counters).map(([name, points]) => [
      name,
      [...points].sort((a, b) => key(a).localeCompare(key(b))),
    ]),
  );
}

describe(`Claude Agent SDK — patched on registration, in every mode${unlessSdk()}`, function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  let repair: string;
  before(async function () {
    skipWithoutSdk(this);
    repair = await repairMessage();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  for (const mode of MODES) {
    it(`${mode}: the in-process tool receives, the model reads and the counters count as the mode says; each call once`, async () => {
      h = harness({
        valueSets: refundSources(),
        checkedArguments: REFUND_ARGUMENTS,
        mode,
        clock: new ManualClock(),
      });
      await h.inst.ready();
      const sdk = requireSdk();
      const z = zod();
      const received: Record<string, string> = {};
      const priorities: unknown[] = [];
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
          sdk.tool(
            'set_priority',
            'Set a ticket priority',
            { ticket: z.string(), level: z.enum(['LOW', 'HIGH']) },
            (args) => {
              priorities.push(args);
              return Promise.resolve({ content: [{ type: 'text', text: 'set' }] });
            },
          ),
        ],
      });
      const run = await offline([{ toolUses: TOOL_USES }, { text: 'done' }]);
      try {
        await drain(
          sdk.query({
            prompt: 'Refund the three orders and raise the ticket.',
            options: run.options({
              mcpServers: { 'shop.v2': shop },
              allowedTools: [REFUND, PRIORITY],
            }),
          }),
        );
        const results = run.api.toolResults();
        const answers = Object.fromEntries(
          CALLS.map((c) => [c.id, denyReason(results[c.id]?.text ?? '(no result)')]),
        );
        expect(received).to.deep.equal(expectedReceived(mode));
        expect(answers).to.deep.equal(expectedAnswers(mode, repair));
        // The enum is the server's as well: an invented level never reaches the handler.
        expect(priorities).to.deep.equal([]);
        const priority = results['call-4'];
        expect(priority?.isError).to.equal(true);
        if (mode === 'reject') {
          expect(denyReason(priority?.text ?? '')).to.include(
            '"level" must be one of: "HIGH", "LOW"',
          );
        } else {
          expect(priority?.text).to.match(/^MCP error -32602/);
        }
        const collected = await h.collect();
        expect(countersOf(collected)).to.deep.equal(expectedWithDerived(mode));
        const call = (tool: string, value: number): Point => ({
          attributes: {
            [ATTR_TOOL]: tool,
            [ATTR_INTEGRATION]: 'claude_agent',
            [ATTR_COVERAGE]: 'checked',
          },
          value,
        });
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
          sorted({ calls: [call('refund_order', 3), call(PRIORITY, 1)] }).calls,
        );
      } finally {
        await run.close();
      }
    });
  }
});
