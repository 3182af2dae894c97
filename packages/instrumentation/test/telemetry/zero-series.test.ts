import { expect } from 'chai';
import { functionValueSet, MISMATCH_SHAPES, UNAVAILABLE_REASONS } from '@argcheck/core';
import {
  COVERAGE_VALUES,
  FETCH_OUTCOME_VALUES,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
} from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import {
  inSet,
  reason,
  REFUND_ARGUMENTS,
  refundSeries,
  REFUNDS,
  shape,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { allPointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { fakeClientClass } from '../mcp/helpers/scripted-engine.js';

const at = (value: number) => (attributes: Record<string, string>) => ({ attributes, value });
const sorted = <T extends { attributes: object }>(points: T[]) =>
  points.sort((a, b) => JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)));

/** Every counter series one checked argument of `refund_order` has, each at `value`. */
function refundArgumentSeries(value: number) {
  return {
    [METRIC_TOOL_ARGUMENT_VALUE_CHECK]: sorted(
      [inSet(true, true), inSet(false, true), inSet(false, false)].map((a) =>
        at(value)(refundSeries(a)),
      ),
    ),
    [METRIC_TOOL_ARGUMENT_MISMATCH]: sorted(
      MISMATCH_SHAPES.map((s) => at(value)(refundSeries(shape(s)))),
    ),
    [METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE]: sorted(
      UNAVAILABLE_REASONS.map((r) => at(value)(refundSeries(reason(r)))),
    ),
    [METRIC_TOOL_ARGUMENT_REWRITTEN]: [at(value)(refundSeries())],
    [METRIC_TOOL_ARGUMENT_REPAIR_STARTED]: [at(value)({ tool: 'refund_order' })],
  };
}

/** The `tool_argument_call` series of each tool, by integration, each at zero. */
function callSeries(byTool: Record<string, readonly string[]>) {
  return sorted(
    Object.entries(byTool).flatMap(([tool, integrations]) =>
      integrations.flatMap((integration) =>
        COVERAGE_VALUES.map((coverage) => at(0)({ tool, integration, coverage })),
      ),
    ),
  );
}

describe('series exported at zero from start-up', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('every configured argument, tool and set has every series of the contract, at zero, before any check', async () => {
    h = harness({
      // An owner that never answers: nothing is fetched, nothing is checked.
      valueSets: { [REFUNDS]: functionValueSet(() => new Promise(() => undefined)) },
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      // Only the dispatcher: a framework this process loaded would be patched, and count too.
      frameworks: { enabled: false },
    });
    const collected = await h.collect();
    for (const [name, expected] of Object.entries(refundArgumentSeries(0))) {
      expect(allPointsOf(collected, name), name).to.deep.equal(expected);
    }
    // Calls of the configured tool, and of any other one, as the dispatcher sees them.
    expect(allPointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
      callSeries({ refund_order: ['dispatcher'], _other: ['dispatcher'] }),
    );
    expect(allPointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal(
      sorted(
        Object.values(FETCH_OUTCOME_VALUES).map((outcome) =>
          at(0)({ set: REFUNDS, source: 'function', outcome }),
        ),
      ),
    );
  });

  it('a burst right after start-up lands on series that were already reported', async () => {
    h = harness({
      valueSets: { [REFUNDS]: functionValueSet(() => Promise.reject(new Error('owner down'))) },
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
    });
    const before = await h.collect();
    await h.inst.ready();
    for (let i = 0; i < 486; i++) h.inst.check('refund_order', { reason_code: 'LATE' });
    const after = await h.collect();
    const unavailable = (c: typeof before) =>
      allPointsOf(c, METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE).find(
        (p) => p.attributes.reason === 'fetch_failed',
      )?.value;
    expect([unavailable(before), unavailable(after)]).to.deep.equal([0, 486]);
  });

  it('a catalog-derived argument, its set and its tool are exported at zero once the catalog is listed', async () => {
    h = harness({ clock: new ManualClock(), frameworks: { enabled: false } });
    const client = new (fakeClientClass())();
    client.tools = [
      {
        name: 'create_ticket',
        inputSchema: {
          type: 'object',
          properties: { priority: { type: 'string', enum: ['low'] } },
        },
      },
    ];
    h.inst.instrumentMcpClient(client);
    const instrumented = await h.collect();
    expect(allPointsOf(instrumented, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([]);
    expect(allPointsOf(instrumented, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
      callSeries({ _other: ['dispatcher', 'mcp'] }),
    );
    await client.listTools();
    const set = 'mcp:fake/create_ticket.priority';
    const series = { tool: 'create_ticket', argument: 'priority', set };
    const collected = await h.collect();
    expect(allPointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(
      sorted(
        [inSet(true, true), inSet(false, true), inSet(false, false)].map((a) =>
          at(0)({ ...series, ...a }),
        ),
      ),
    );
    expect(allPointsOf(collected, METRIC_TOOL_ARGUMENT_CALL)).to.deep.equal(
      callSeries({ _other: ['dispatcher', 'mcp'], create_ticket: ['mcp'] }),
    );
    // Its one fetch (members from the schema) has happened by the time the listing returns.
    expect(allPointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal(
      sorted(
        Object.values(FETCH_OUTCOME_VALUES).map((outcome) =>
          at(outcome === 'success' ? 1 : 0)({ set, source: 'tool_schema', outcome }),
        ),
      ),
    );
  });
});
