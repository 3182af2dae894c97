import { expect } from 'chai';
import { createArgumentChecker, ErrorCode } from '../../src/index.js';
import type { Finding, RepairDisclosure } from '../../src/index.js';
import { fixedProvider } from '../helpers/fixed-provider.js';

const CODES = ['DAMAGED', 'DUPLICATE_CHARGE', 'LATE', 'NOT_AS_DESCRIBED', 'OTHER', 'WRONG_ITEM'];
const HANDLES = Array.from({ length: 10_000 }, (_, i) => `user-${String(i).padStart(5, '0')}`);

function checker(disclosure?: Record<string, RepairDisclosure>) {
  return createArgumentChecker({
    valueSets: fixedProvider({ refunds: CODES, handles: HANDLES }),
    checkedArguments: {
      refund_order: { reason_code: 'refunds' },
      assign: { assignee: 'handles' },
    },
    mode: 'reject',
    ...(disclosure === undefined ? {} : { repairDisclosure: disclosure }),
  });
}

const suggestions = (findings: readonly Finding[]) =>
  findings.map((f) => (f.status === 'checked' ? f.suggestions : undefined));

describe('checker: what a repair message discloses of a set (repairDisclosure)', () => {
  it('by default lists all six members of a six-code set', () => {
    const outcome = checker().check('refund_order', { reason_code: 'LATE_DELIVERY' });
    expect(outcome.repairMessage).to.equal(
      'refund_order was not called: an argument is not a legal value. "reason_code" must be one of: ' +
        '"DAMAGED", "DUPLICATE_CHARGE", "LATE", "NOT_AS_DESCRIBED", "OTHER", "WRONG_ITEM" (got "LATE_DELIVERY"). ' +
        'Call the tool again using only the listed values.',
    );
  });

  it("'none' names no member, of a small set or a large one: the argument, the set's name and its size", () => {
    const c = checker({ refunds: 'none', handles: 'none' });
    const small = c.check('refund_order', { reason_code: 'LATE_DELIVERY' });
    expect(small.repairMessage).to.equal(
      'refund_order was not called: an argument is not a legal value. "reason_code" must be a member of ' +
        'refunds (6 values; got "LATE_DELIVERY"). Call the tool again with a member of the set.',
    );
    expect(suggestions(small.findings)).to.deep.equal([[]]);
    const large = c.check('assign', { assignee: 'user-0001' });
    expect(large.repairMessage).to.equal(
      'assign was not called: an argument is not a legal value. "assignee" must be a member of ' +
        'handles (10000 values; got "user-0001"). Call the tool again with a member of the set.',
    );
    expect(suggestions(large.findings)).to.deep.equal([[]]);
    for (const member of [...CODES, ...HANDLES]) {
      expect(`${small.repairMessage}${large.repairMessage}`).not.to.include(`"${member}"`);
    }
  });

  it("'closest' names the closest members and the size, even of a set small enough to list", () => {
    const outcome = checker({ refunds: 'closest' }).check('refund_order', { reason_code: 'LATTE' });
    expect(outcome.repairMessage).to.match(
      /^refund_order was not called: an argument is not a legal value\. "reason_code" must be a member of refunds \(6 values; got "LATTE"\)\. Closest: "LATE"/,
    );
    expect(outcome.repairMessage).not.to.include('WRONG_ITEM');
  });

  it('applies per set: a set not named keeps the default', () => {
    const c = checker({ handles: 'none' });
    expect(c.check('refund_order', { reason_code: 'X' }).repairMessage).to.include('"WRONG_ITEM"');
    expect(c.check('assign', { assignee: 'user-0001' }).repairMessage).not.to.match(/"user-\d{5}"/);
  });

  it('refuses a value other than list, closest or none with INVALID_OPTION, a set no source provides with UNKNOWN_SET', () => {
    for (const bad of [{ refunds: 'all' }, { refunds: 1 }, 'none', ['none']]) {
      expect(() => checker(bad as unknown as Record<string, RepairDisclosure>))
        .to.throw(/repairDisclosure/)
        .with.property('code', ErrorCode.INVALID_OPTION);
    }
    expect(() => checker({ identity: 'none' }))
      .to.throw('repairDisclosure names "identity", which no value-set source provides')
      .with.property('code', ErrorCode.UNKNOWN_SET);
  });
});
