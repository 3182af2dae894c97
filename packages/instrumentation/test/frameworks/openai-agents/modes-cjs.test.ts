import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import {
  countersOf,
  expectedAnswers,
  expectedCounters,
  expectedReceived,
  MODES,
  repairMessage,
} from '../refund-scenario.js';
import { runAgents } from './agents-run.js';
import { agentsToolModuleCjs, freshAgentsCjs } from './load.js';

describe('OpenAI Agents SDK — auto-patched, CommonJS build', function () {
  // A fresh CommonJS load of the SDK reads a few hundred files.
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
        const result = await runAgents(freshAgentsCjs(), { stream });
        expect(result.received).to.deep.equal(expectedReceived(mode));
        expect(result.answers).to.deep.equal(expectedAnswers(mode, repair));
        expect(countersOf(await h.collect())).to.deep.equal(expectedCounters(mode));
      });
    }
  }

  it('wraps invokeFunctionTool in the tool module, and takes the wrapper off on disable()', async () => {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS });
    freshAgentsCjs();
    const toolModule = agentsToolModuleCjs();
    expect(isWrapped(toolModule.invokeFunctionTool)).to.equal(true);
    h.inst.disable();
    expect(isWrapped(toolModule.invokeFunctionTool)).to.equal(false);
    const result = await runAgents(freshAgentsCjs());
    expect(result.received).to.deep.equal(expectedReceived('observe'));
    expect(countersOf(await h.collect())).to.deep.equal({
      ...expectedCounters('observe'),
      tool_argument_value_check: [],
      tool_argument_mismatch: [],
    });
  });
});
