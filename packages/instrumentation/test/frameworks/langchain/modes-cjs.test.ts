import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
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
} from '../refund-scenario.js';
import { runLangChain } from './langchain-run.js';
import { freshLangChainCjs } from './load.js';

describe('LangChain.js with LangGraph — auto-patched, CommonJS build', function () {
  this.timeout(20_000);

  let h: Harness;
  let repair: string;
  before(async () => {
    repair = await repairMessage();
  });
  afterEach(() => h.close());

  for (const mode of MODES) {
    for (const stream of [false, true]) {
      it(`${mode}${stream ? ', streamed' : ''}: the tool receives, the model reads and the counters count as the mode says`, async () => {
        h = harness({
          valueSets: refundSources(),
          checkedArguments: REFUND_ARGUMENTS,
          mode,
          clock: new ManualClock(),
        });
        await h.inst.ready();
        const result = await runLangChain(freshLangChainCjs(), { stream });
        expect(result.received).to.deep.equal(expectedReceived(mode));
        expect(result.answers).to.deep.equal(expectedAnswers(mode, repair));
        // A rejection is LangChain's failed tool call: a ToolMessage with status "error" and the call's id.
        expect(result.statuses).to.deep.equal({
          [CALLS[0].id]: 'success',
          [CALLS[1].id]: 'success',
          [CALLS[2].id]: mode === 'reject' ? 'error' : 'success',
        });
        expect(countersOf(await h.collect())).to.deep.equal(expectedCounters(mode));
      });
    }
  }

  it('wraps StructuredTool.prototype.call, and takes the wrapper off on disable()', () => {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS });
    const proto = freshLangChainCjs().tools.StructuredTool.prototype as object;
    const call = () => (proto as Record<string, unknown>).call;
    expect(isWrapped(call())).to.equal(true);
    h.inst.disable();
    expect(isWrapped(call())).to.equal(false);
  });
});
