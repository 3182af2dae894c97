/**
 * The OpenAI Agents guardrail (`inst.openAIAgentsGuardrail()`) as the SDK's
 * runner calls it: `run({ agent, toolCall })`, awaited. It needs no SDK of
 * its own, so this runs on every Node line; the runs through the SDK are in
 * `openai-agents/` and the contract suite.
 */
import { expect } from 'chai';
import { diag as globalDiag, DiagLogLevel } from '@opentelemetry/api';
import { captureDiag } from '@argcheck/testing/diag';
import type { CapturedDiag } from '@argcheck/testing/diag';
import { pointsOf } from '@argcheck/testing/metrics';
import {
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CALL,
} from '../../src/semconv.js';
import { REFUND_ARGUMENTS, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';

/**
 * The guardrail alone: with the Agents SDK's module patched (another test in
 * this process may have loaded it), the patch rather than the call item
 * carries a rewrite.
 */
const ALONE = { mcp: { enabled: false }, frameworks: { enabled: false } } as const;

/** An agent's function tool as the guardrail reads it: its name, description and JSON schema. */
function refundTool(): Record<string, unknown> {
  return {
    type: 'function',
    name: 'refund_order',
    description: 'Refund an order',
    parameters: {
      type: 'object',
      properties: { order_id: { type: 'string' }, reason_code: { type: 'string' } },
      required: ['order_id', 'reason_code'],
    },
    invoke: () => Promise.resolve('refunded'),
  };
}

const callOf = (code: string, id: string) => ({
  name: 'refund_order',
  arguments: JSON.stringify({ order_id: 'A-1', reason_code: code }),
  callId: id,
});

describe('OpenAI Agents guardrail, called as the runner calls it', () => {
  let h: Harness | undefined;
  let diag: CapturedDiag | undefined;
  afterEach(async () => {
    diag?.restore();
    diag = undefined;
    await h?.close();
    h = undefined;
  });

  /** The `tool_argument_call` points of the checked tool. */
  const calls = async (harnessed: Harness) =>
    pointsOf(await harnessed.collect(), METRIC_TOOL_ARGUMENT_CALL);

  it('decides a call within run() once the tool is listed: no turn of the microtask queue first', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      ...ALONE,
      mode: 'normalise',
    });
    await h.inst.ready();
    const guardrail = h.inst.openAIAgentsGuardrail();
    const agent = { name: 'support', tools: [refundTool()] };
    // The tool's first call lists it and waits for the listing.
    const first = callOf('damaged', 'c-1');
    expect(await guardrail.run({ agent, toolCall: first })).to.deep.equal({
      behavior: { type: 'allow' },
    });
    const second = callOf('late', 'c-2');
    const answer = guardrail.run({ agent, toolCall: second });
    // Without the Agents patch the rewrite goes into the call item too: already there, nothing awaited.
    expect([first.arguments, second.arguments]).to.deep.equal([
      JSON.stringify({ order_id: 'A-1', reason_code: 'DAMAGED' }),
      JSON.stringify({ order_id: 'A-1', reason_code: 'LATE' }),
    ]);
    expect(await answer).to.deep.equal({ behavior: { type: 'allow' } });
    expect(await calls(h)).to.deep.equal([
      {
        attributes: {
          [ATTR_TOOL]: 'refund_order',
          [ATTR_INTEGRATION]: 'openai_agents',
          [ATTR_COVERAGE]: 'checked',
        },
        value: 2,
      },
    ]);
  });

  it('answers a rejected call with the repair message, at the first call and after', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      ...ALONE,
      mode: 'reject',
    });
    await h.inst.ready();
    const guardrail = h.inst.openAIAgentsGuardrail();
    const agent = { name: 'support', tools: [refundTool()] };
    const answers = [
      await guardrail.run({ agent, toolCall: callOf('INVENTED', 'c-1') }),
      await guardrail.run({ agent, toolCall: callOf('INVENTED', 'c-2') }),
    ];
    for (const answer of answers) {
      expect(answer.behavior.type).to.equal('rejectContent');
      expect((answer.behavior as { message?: string }).message).to.include('DAMAGED');
    }
  });

  it('lets the call go ahead, and says why, when the data cannot be read', async () => {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS, ...ALONE });
    await h.inst.ready();
    diag = captureDiag();
    const guardrail = h.inst.openAIAgentsGuardrail();
    const hostile = {
      get toolCall(): never {
        throw new Error('unreadable call');
      },
    };
    const answer = guardrail.run(hostile);
    expect(answer).to.be.instanceOf(Promise);
    expect(await answer).to.deep.equal({ behavior: { type: 'allow' } });
    expect(diag.messages.filter((m) => m.level === 'error')).to.deep.equal([
      {
        level: 'error',
        message:
          '@argcheck/instrumentation argcheck: the Agents guardrail check failed; the call goes ahead Error: unreadable call',
      },
    ]);
  });

  it('lets the call go ahead when the diagnostics logger throws as it reports the failure', async () => {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS, ...ALONE });
    await h.inst.ready();
    const reported: string[] = [];
    const throwing = (...args: unknown[]) => {
      reported.push(args.map(String).join(' '));
      throw new Error('broken logger');
    };
    globalDiag.setLogger(
      { error: throwing, warn: throwing, info: throwing, debug: throwing, verbose: throwing },
      { logLevel: DiagLogLevel.ERROR, suppressOverrideMessage: true },
    );
    try {
      const guardrail = h.inst.openAIAgentsGuardrail();
      const hostile = {
        get toolCall(): never {
          throw new Error('unreadable call');
        },
      };
      expect(await guardrail.run(hostile)).to.deep.equal({ behavior: { type: 'allow' } });
      expect(reported).to.have.length(1);
    } finally {
      globalDiag.disable();
    }
  });
});
