import { expect } from 'chai';
import type * as ZodModule from 'zod';
import type { CheckMode } from '@argcheck/core';
import {
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { mastraHasToolHooks } from './tool-hooks.js';
import { refundModel, toolResultSeen } from '../helpers/refund-model.js';

const CODES = ['DAMAGED', 'damaged', 'CUSTOMER_UNHAPPY'] as const;

interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
  stream(prompt: string, options?: object): Promise<{ consumeStream(): Promise<void> }>;
}
type AgentClass = (new (config: object) => MastraAgent) & { prototype: Record<string, unknown> };
interface Mastra {
  Agent: AgentClass;
  createTool(config: object): unknown;
}

const ran = (code: string) => ({ order_id: 'o-1', reason_code: code });
const result = (code: string) => ({ type: 'json', value: { refunded: code } });
const CHECKS = [
  { attributes: refundSeries(inSet(false, false)), value: 1 },
  { attributes: refundSeries(inSet(false, true)), value: 1 },
  { attributes: refundSeries(inSet(true, true)), value: 1 },
];

/**
 * The ESM build through inst.mastraHooks(), the one way in the contract
 * test (test/contract) does not run: it runs the CommonJS build, auto-patched
 * and through inst.wrapMastraTools().
 */
const WAYS = ['ESM build, inst.mastraHooks()'] as const;
type Way = (typeof WAYS)[number];

describe(`Mastra — modes through inst.mastraHooks(), ESM build (${NODE_22_REASON})`, function () {
  this.timeout(30_000);
  let h: Harness;
  let z: typeof ZodModule.z;
  let hooks = false;

  before(async function () {
    skipBelowNode22(this, '@mastra/core');
    ({ z } = await import('zod'));
    hooks = await mastraHasToolHooks();
  });
  afterEach(() => h?.close());

  async function mastraFor(): Promise<Mastra> {
    const [agent, tools] = await Promise.all([
      import('@mastra/core/agent'),
      import('@mastra/core/tools'),
    ]);
    return {
      Agent: agent.Agent as unknown as AgentClass,
      createTool: (config) => tools.createTool(config as never),
    };
  }

  async function setUp(mode: CheckMode) {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 0,
      mode,
    });
    await h.inst.ready();
  }

  async function turns(ctx: Mocha.Context, way: Way, streamed: boolean) {
    // inst.mastraHooks() needs a Mastra release with agent tool hooks.
    if (way === 'ESM build, inst.mastraHooks()' && !hooks) ctx.skip();
    const mastra = await mastraFor();
    const out: { received: unknown; seen: unknown }[] = [];
    for (const code of CODES) {
      const received: unknown[] = [];
      const refund = mastra.createTool({
        id: 'refund_order',
        description: 'Refund an order',
        inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
        execute: (input: { reason_code: string }) => {
          received.push(input);
          return Promise.resolve({ refunded: input.reason_code });
        },
      });
      const { model, prompts } = await refundModel(code, 'refund_order', 'v3');
      const agent = new mastra.Agent({
        id: 'support',
        name: 'support',
        instructions: 'Refund orders.',
        model,
        tools: { refund_order: refund },
        ...(way === 'ESM build, inst.mastraHooks()' ? { hooks: h.inst.mastraHooks() } : {}),
      });
      if (streamed) await (await agent.stream('refund', { maxSteps: 2 })).consumeStream();
      else await agent.generate('refund', { maxSteps: 2 });
      out.push({ received: received[0], seen: toolResultSeen(prompts) });
    }
    return out;
  }

  for (const way of WAYS) {
    for (const streamed of [false, true]) {
      describe(`${way}, ${streamed ? 'stream' : 'generate'}`, () => {
        it('observe: the tool gets the model’s arguments untouched; each call counted once', async function () {
          await setUp('observe');
          expect(await turns(this, way, streamed)).to.deep.equal(
            CODES.map((code) => ({ received: ran(code), seen: result(code) })),
          );
          expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(
            CHECKS,
          );
        });

        it('normalise: the tool gets the canonical member of a case variant', async function () {
          await setUp('normalise');
          expect(await turns(this, way, streamed)).to.deep.equal([
            { received: ran('DAMAGED'), seen: result('DAMAGED') },
            { received: ran('DAMAGED'), seen: result('DAMAGED') },
            { received: ran('CUSTOMER_UNHAPPY'), seen: result('CUSTOMER_UNHAPPY') },
          ]);
          const collected = await h.collect();
          expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(CHECKS);
          expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REWRITTEN)).to.deep.equal([
            { attributes: refundSeries(), value: 1 },
          ]);
        });

        it('reject: the tool does not run; the model reads { error: true, message } as its result', async function () {
          await setUp('reject');
          const [valid, variant, invented] = await turns(this, way, streamed);
          expect([valid, variant]).to.deep.equal([
            { received: ran('DAMAGED'), seen: result('DAMAGED') },
            { received: ran('DAMAGED'), seen: result('DAMAGED') },
          ]);
          expect(invented?.received).to.equal(undefined);
          const seen = invented?.seen as {
            type: string;
            value: { error: boolean; message: string };
          };
          expect(seen.type).to.equal('json');
          expect(seen.value.error).to.equal(true);
          expect(seen.value.message).to.include('"reason_code" must be one of');
          const collected = await h.collect();
          expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(CHECKS);
          expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
            { attributes: { tool: 'refund_order' }, value: 1 },
          ]);
        });
      });
    }
  }
});
