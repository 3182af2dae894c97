import { expect } from 'chai';
import { createArgumentChecker, createValueSetProvider } from '@argcheck/core';
import { REFUND_ARGUMENTS, refundSources } from './helpers/fixtures.js';
import { harness } from './helpers/telemetry.js';
import type { Harness } from './helpers/telemetry.js';

describe('the engine, for a tool without checked arguments', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('answers what the core checker answers, the arguments untouched', async () => {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS });
    await h.inst.ready();
    const provider = createValueSetProvider({ sources: refundSources() });
    await provider.ready();
    const checker = createArgumentChecker({
      valueSets: provider,
      checkedArguments: REFUND_ARGUMENTS,
    });
    const inputs: unknown[] = [{ reason_code: 'late' }, '{"reason_code":"late"}', null, undefined];
    for (const args of inputs) {
      const outcome = h.inst.check('model_invented_tool', args);
      expect(outcome).to.deep.equal(checker.check('model_invented_tool', args));
      expect(outcome.args).to.equal(args);
    }
    provider.close();
  });
});
