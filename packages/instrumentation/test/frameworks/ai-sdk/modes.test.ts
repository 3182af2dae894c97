import { expect } from 'chai';
import type * as AiModule from 'ai';
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
import { refundModel, toolResultSeen } from '../helpers/refund-model.js';

type Ai = typeof AiModule;
type Zod = typeof ZodModule;

const CODES = ['DAMAGED', 'damaged', 'CUSTOMER_UNHAPPY'] as const;

/** What the tool received (undefined: it did not run) and what the model saw next, per code. */
interface Turn {
  received: unknown;
  seen: unknown;
}

const ran = (code: string) => ({ order_id: 'o-1', reason_code: code });
const result = (code: string) => ({ type: 'json', value: { refunded: code } });

const CHECKS = [
  { attributes: refundSeries(inSet(false, false)), value: 1 },
  { attributes: refundSeries(inSet(false, true)), value: 1 },
  { attributes: refundSeries(inSet(true, true)), value: 1 },
];

describe(`AI SDK — modes through inst.wrapAiSdkTools (${NODE_22_REASON})`, function () {
  let ai: Ai;
  let z: Zod;
  let h: Harness;

  before(async function () {
    skipBelowNode22(this, 'ai');
    ai = await import('ai');
    z = await import('zod');
  });
  afterEach(() => h?.close());

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

  function refundTool(received: unknown[]) {
    return ai.tool({
      description: 'Refund an order',
      // A free string: the owner's set (configured) is what decides.
      inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
      execute: (input: { order_id: string; reason_code: string }) => {
        received.push(input);
        return Promise.resolve({ refunded: input.reason_code });
      },
    });
  }

  type Runner = (code: string, tools: Record<string, unknown>) => Promise<unknown[][]>;
  // The SDK's option types are generic over the tools map; these tests pass it untyped.
  type Loose<R> = (options: object) => R;
  interface Streamed {
    consumeStream(): PromiseLike<void>;
  }
  interface LooseAgent {
    generate(options: object): Promise<unknown>;
    stream(options: object): Promise<Streamed>;
  }
  const agentOf = (options: object) =>
    new (ai.ToolLoopAgent as unknown as new (options: object) => LooseAgent)(options);

  const runners: Record<string, Runner> = {
    generateText: async (code, tools) => {
      const { model, prompts } = await refundModel(code);
      await (ai.generateText as Loose<Promise<unknown>>)({
        model,
        tools,
        stopWhen: ai.isStepCount(2),
        prompt: 'refund',
      });
      return prompts;
    },
    'streamText (arguments split across chunks)': async (code, tools) => {
      const { model, prompts } = await refundModel(code);
      const stream = (ai.streamText as Loose<Streamed>)({
        model,
        tools,
        stopWhen: ai.isStepCount(2),
        prompt: 'refund',
      });
      await stream.consumeStream();
      return prompts;
    },
    'ToolLoopAgent.generate': async (code, tools) => {
      const { model, prompts } = await refundModel(code);
      const agent = agentOf({ model, tools, stopWhen: ai.isStepCount(2) });
      await agent.generate({ prompt: 'refund' });
      return prompts;
    },
    'ToolLoopAgent.stream': async (code, tools) => {
      const { model, prompts } = await refundModel(code);
      const agent = agentOf({ model, tools, stopWhen: ai.isStepCount(2) });
      await (await agent.stream({ prompt: 'refund' })).consumeStream();
      return prompts;
    },
  };

  async function turns(run: Runner): Promise<Turn[]> {
    const out: Turn[] = [];
    for (const code of CODES) {
      const received: unknown[] = [];
      const tools = h.inst.wrapAiSdkTools({ refund_order: refundTool(received) });
      const prompts = await run(code, tools);
      out.push({ received: received[0], seen: toolResultSeen(prompts) });
    }
    return out;
  }

  for (const [entry, run] of Object.entries(runners)) {
    describe(entry, () => {
      it('observe: the tool gets the model’s arguments untouched; each call counted once', async () => {
        await setUp('observe');
        expect(await turns(run)).to.deep.equal(
          CODES.map((code) => ({ received: ran(code), seen: result(code) })),
        );
        const collected = await h.collect();
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(CHECKS);
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REWRITTEN)).to.deep.equal([]);
      });

      it('normalise: the tool gets the canonical member of a case variant', async () => {
        await setUp('normalise');
        expect(await turns(run)).to.deep.equal([
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

      it('reject: the tool does not run and the model reads the repair message as its result', async () => {
        await setUp('reject');
        const [valid, variant, invented] = await turns(run);
        expect(valid).to.deep.equal({ received: ran('DAMAGED'), seen: result('DAMAGED') });
        expect(variant).to.deep.equal({ received: ran('DAMAGED'), seen: result('DAMAGED') });
        expect(invented?.received).to.equal(undefined);
        const seen = invented?.seen as { type: string; value: string };
        expect(seen.type).to.equal('text');
        expect(seen.value).to.include('"reason_code" must be one of').and.include('"DAMAGED"');
        const collected = await h.collect();
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(CHECKS);
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
          { attributes: { tool: 'refund_order' }, value: 1 },
        ]);
      });
    });
  }
});
