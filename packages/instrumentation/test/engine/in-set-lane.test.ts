import { expect } from 'chai';
import { context, propagation } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { staticValueSet } from '@argcheck/core';
import type { CheckMode } from '@argcheck/core';
import { allPointsOf } from '@argcheck/testing/metrics';
import { seededRandom } from '@argcheck/testing/random';
import { Refusal } from '../../src/engine/engine.js';
import type { Decision, Engine } from '../../src/engine/engine.js';
import { callContext } from '../../src/kit/call-context.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { engineOf } from '../mcp/helpers/recorded.js';
import { StackContextManager } from '../mcp/helpers/stack-context-manager.js';

/** An MCP request as the wrappers hand it to the engine. */
type Params = Readonly<Record<string, unknown>> & { readonly name: string };

/** One call: its request, and what it runs in (a prompt version in the baggage, a run). */
interface Case {
  params: Params;
  /**
   * In the lane's reach: in no run, every checked argument present a string
   * in its set (`true`), or a string of a loaded set, counted there only in
   * `observe` (`'observe'`).
   */
  lane: boolean | 'observe';
  promptVersion?: string;
  run?: { model: string };
}

const refund = (args: unknown, lane: Case['lane'], extra: Partial<Case> = {}): Case => ({
  params: { name: 'refund_order', arguments: args },
  lane,
  ...extra,
});

// `lookup` has no checked argument of its own, `ship`'s comes from the listing (derived).
const CASES: Case[] = [
  refund({ order_id: 'o-1', reason_code: 'DAMAGED' }, true),
  refund({ order_id: 'o-2', reason_code: 'LATE', region: 'EU' }, true),
  refund({ order_id: 'o-3', reason_code: 'damaged' }, 'observe'),
  refund({ order_id: 'o-4', reason_code: 'CUSTOMER_UNHAPPY' }, 'observe'),
  refund({ order_id: 'o-5', reason_code: 'LATE', region: 'ASIA' }, 'observe'),
  refund({ order_id: 'o-10', reason_code: 'LAET', region: 'eu' }, 'observe'),
  refund({ order_id: 'o-11', reason_code: ' Late ' }, 'observe'),
  refund({ order_id: 'o-6', reason_code: 7 }, false),
  refund({ order_id: 'o-7' }, false),
  refund({ region: 'US' }, true),
  refund('{"reason_code":"LATE"}', false),
  refund([{ reason_code: 'LATE' }], false),
  refund({ reason_code: 'LATE', nested: { deep: ['x'] } }, true),
  refund({ reason_code: 'DAMAGED' }, true, { promptVersion: 'v7' }),
  refund({ reason_code: 'DAMAGED' }, true, { promptVersion: 'v8' }),
  refund({ reason_code: 'DAMAGED' }, false, { run: { model: 'model-a' } }),
  {
    params: {
      name: 'refund_order',
      arguments: { reason_code: 'LATE' },
      _meta: { 'gen_ai.conversation.id': 'conv-1', 'gen_ai.tool.call.id': 'call-1' },
    },
    lane: true,
  },
  { params: { name: 'lookup', arguments: { order_id: 'o-1' } }, lane: false },
  { params: { name: 'ship', arguments: { carrier: 'UPS' } }, lane: true },
  { params: { name: 'ship', arguments: { carrier: 'ups' } }, lane: 'observe' },
  { params: { name: 'unlisted_tool', arguments: { x: 1 } }, lane: false },
  { params: { name: 'refund_order' }, lane: false },
  refund({ order_id: 'o-9', reason_code: 'LATE' }, true),
];

const LISTING = {
  tools: [
    {
      name: 'ship',
      inputSchema: {
        type: 'object',
        properties: { carrier: { type: 'string', enum: ['UPS', 'DHL'] } },
      },
    },
    { name: 'refund_order', inputSchema: { type: 'object', properties: {} } },
    { name: 'lookup', inputSchema: { type: 'object', properties: {} } },
  ],
  origin: 'mcp',
  integration: 'mcp',
} as const;

/** Whether the lane takes `c` in `mode`. */
const taken = (c: Case, mode: CheckMode): boolean =>
  c.lane === 'observe' ? mode === 'observe' : c.lane;

function instance(mode: CheckMode): Harness {
  return harness({
    mode,
    // Every other finding is sampled, from the same seed on both sides.
    logSampleRatio: 0.5,
    random: seededRandom(7),
    attribution: {},
    valueSets: {
      codes: staticValueSet(['DAMAGED', 'LATE']),
      regions: staticValueSet(['EU', 'US']),
    },
    checkedArguments: { refund_order: { reason_code: 'codes', region: 'regions' } },
  });
}

function baggage(promptVersion: string | undefined): Context {
  if (promptVersion === undefined) return context.active();
  return propagation.setBaggage(
    context.active(),
    propagation.createBaggage({ 'gen_ai.prompt.version': { value: promptVersion } }),
  );
}

/** Make each call through `decide`, with `readOnce` as `decideSent` has it, or through `decideSent`. */
async function run(
  mode: CheckMode,
  through: 'decide' | 'decideSent',
): Promise<{ h: Harness; sent: unknown[]; decided: number }> {
  const h = instance(mode);
  await h.inst.ready();
  const engine = engineOf(h.inst);
  const client = {};
  await engine.toolsListed(client, LISTING);
  let decided = 0;
  const decide = engine.decide.bind(engine);
  (engine as { decide: Engine['decide'] }).decide = (call): Decision => {
    decided++;
    return decide(call);
  };
  const sent: unknown[] = [];
  const decision = (out: Decision) =>
    out.answer === undefined ? out.args : { refused: out.answer };
  for (const c of CASES) {
    const { params } = c;
    const call = (): unknown => {
      if (through === 'decide') {
        const context = () => callContext(params);
        return decision(
          decide({
            tool: params.name,
            args: params.arguments,
            context,
            scope: client,
            integration: 'mcp',
            readOnce: true,
          }),
        );
      }
      const out = engine.decideSent(
        params.name,
        params.arguments,
        client,
        'mcp',
        callContext,
        params,
      );
      return out instanceof Refusal ? { refused: out.message } : out;
    };
    const before = decided;
    sent.push(inContext(h, c, call));
    // The lane answers an in-set call itself (and in `observe`, a string out
    // of its set); `decide` has every other. In reject mode, only until the
    // first rejection: from then on a repair waits, and every call goes to
    // `decide`, which settles it.
    if (through === 'decideSent' && (mode !== 'reject' || sent.length <= 3)) {
      expect(decided - before, JSON.stringify(params)).to.equal(taken(c, mode) ? 0 : 1);
    }
  }
  return { h, sent, decided };
}

/** Run `call` in the baggage and the run `c` asks for. */
function inContext(h: Harness, c: Case, call: () => unknown): unknown {
  return context.with(baggage(c.promptVersion), () =>
    c.run === undefined ? call() : h.inst.withAttribution(c.run, call),
  );
}

describe('the in-set lane: what decideSent counts is what decide counts', () => {
  before(() => context.setGlobalContextManager(new StackContextManager()));
  after(() => context.disable());

  for (const mode of ['observe', 'normalise', 'reject'] as const) {
    it(`${mode}: the same arguments sent, metric points and log records, call for call`, async () => {
      const viaDecide = await run(mode, 'decide');
      const viaLane = await run(mode, 'decideSent');
      try {
        expect(viaLane.sent).to.deep.equal(viaDecide.sent);
        const [lanePoints, decidePoints] = [await viaLane.h.collect(), await viaDecide.h.collect()];
        // Every counter, point for point (the gauges say how old the sets are).
        expect([...lanePoints.counters].sort()).to.deep.equal([...decidePoints.counters].sort());
        for (const name of lanePoints.counters) {
          expect(allPointsOf(lanePoints, name), name).to.deep.equal(
            allPointsOf(decidePoints, name),
          );
        }
        expect(viaLane.h.records()).to.deep.equal(viaDecide.h.records());
        // Not vacuous: calls were counted, records written, and the lane took its calls.
        expect([...lanePoints.counters]).to.include('tool_argument_value_check');
        expect(viaLane.h.records().length).to.be.greaterThan(3);
        // Records of values out of their sets, with their shapes, on both paths.
        const shapes = viaLane.h
          .records()
          .map((r) => r.attributes.shape)
          .filter((shape) => shape !== undefined);
        expect(shapes.length).to.be.greaterThan(1);
        if (mode !== 'reject') {
          expect(viaLane.decided).to.equal(CASES.filter((c) => !taken(c, mode)).length);
        }
      } finally {
        await viaLane.h.close();
        await viaDecide.h.close();
      }
    });
  }

  it('sends a copy read once, and leaves the caller’s arguments as they were', async () => {
    const h = instance('observe');
    try {
      await h.inst.ready();
      const engine = engineOf(h.inst);
      let reads = 0;
      const args = {
        order_id: 'o-1',
        get reason_code() {
          reads++;
          return 'LATE';
        },
      };
      const params = { name: 'refund_order', arguments: args };
      const out = engine.decideSent('refund_order', args, {}, 'mcp', callContext, params);
      expect(out).to.deep.equal({ order_id: 'o-1', reason_code: 'LATE' });
      expect(out).to.not.equal(args);
      expect(reads).to.equal(1);
    } finally {
      await h.close();
    }
  });

  it('fails open when the arguments cannot be read: the call goes out as it came', async () => {
    const h = instance('reject');
    try {
      await h.inst.ready();
      const engine = engineOf(h.inst);
      const args = {
        get reason_code(): string {
          throw new Error('hostile');
        },
      };
      const out = engine.decideSent('refund_order', args, {}, 'mcp', callContext, {});
      expect(out).to.equal(args);
    } finally {
      await h.close();
    }
  });
});
