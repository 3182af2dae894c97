import { expect } from 'chai';
import { functionValueSet } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import { METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE } from '../../src/semconv.js';
import { membersChanged } from '../../src/telemetry/series.js';
import { harness } from '../helpers/telemetry.js';
import { setSeries } from '../helpers/fixtures.js';

describe('tool_argument_value_set_change', () => {
  it('counts members added and removed by each refresh that changed them', async () => {
    let members = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED'];
    const h = harness({
      valueSets: { codes: functionValueSet(() => Promise.resolve(members)) },
      checkedArguments: { refund_order: { reason_code: 'codes' } },
      clock: new ManualClock(),
    });
    try {
      await h.inst.ready();
      const changes = async () =>
        pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE);
      // The first load is no change.
      expect(await changes()).to.deep.equal([]);
      members = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'WRONG_ITEM'];
      await h.inst.valueSets.refresh('codes');
      await h.inst.valueSets.refresh('codes'); // the same members: nothing counted
      members = ['DAMAGED', 'LATE', 'WRONG_ITEM', 'CHARGED_TWICE'];
      await h.inst.valueSets.refresh('codes');
      expect(await changes()).to.deep.equal([
        { attributes: { ...setSeries('codes', 'function'), change: 'added' }, value: 2 },
        { attributes: { ...setSeries('codes', 'function'), change: 'removed' }, value: 1 },
      ]);
    } finally {
      await h.close();
    }
  });

  it('compares sets above MAX_DIFFED_MEMBERS by size only', () => {
    const set = (size: number) => ({ size, has: () => true, members: () => [] }) as never;
    expect(membersChanged(set(300_000), set(300_010))).to.deep.equal({ added: 10, removed: 0 });
    expect(membersChanged(set(300_010), set(250_000))).to.deep.equal({ added: 0, removed: 50_010 });
  });
});
