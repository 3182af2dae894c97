// Issue 21, item 13: the module-level stack of closers in json-tokens.ts kept
// the deepest nesting any argument text ever had: one call with a
// 1,000,000-deep member left megabytes held for the life of the process. It
// is given back once the text is read.
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/index.js';
import { heldCloserCapacity } from '../../src/checker/json-tokens.js';
import { fixedProvider } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

describe('regression: the JSON reader kept the deepest nesting it ever saw', () => {
  it('holds at most 1,024 closers after reading a 1,000,000-deep unchecked member', () => {
    const checker = createArgumentChecker({
      valueSets: fixedProvider({ refunds: ['LATE', 'DAMAGED'] }),
      checkedArguments: { refund_order: { reason_code: 'refunds' } },
    });
    const depth = 1_000_000;
    const text = `{"note":${'['.repeat(depth)}1${']'.repeat(depth)},"reason_code":"LATE"}`;
    const outcome = checker.check('refund_order', text);
    expect(
      outcome.findings.map((f) => (f.status === 'checked' ? f.inSet : f.status)),
    ).to.deep.equal([true]);
    expect(heldCloserCapacity()).to.be.at.most(1_024);
    recordFigure(
      'closer-stack',
      `${heldCloserCapacity().toLocaleString('en-US')} closers held after reading a text with a ${depth.toLocaleString('en-US')}-deep unchecked member (at most 1,024 allowed); the checked argument still read, in set`,
    );
  });
});
