import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { ArgumentCheckerOptions } from '../../src/types.js';
import { fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';

const valueSets = fixedProvider({ 'refunds.reason_codes': REFUND_CODES });

function codeOf(options: Partial<ArgumentCheckerOptions>): string | undefined {
  try {
    createArgumentChecker({
      valueSets,
      checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
      ...options,
    });
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('createArgumentChecker configuration', () => {
  it('accepts a valid configuration and lists the sets it reads', () => {
    const checker = createArgumentChecker({
      valueSets,
      checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    });
    expect({ mode: checker.mode, setNames: checker.setNames }).to.deep.equal({
      mode: 'observe',
      setNames: ['refunds.reason_codes'],
    });
  });

  const cases: [string, Partial<ArgumentCheckerOptions>, string][] = [
    [
      'a set no source provides',
      { checkedArguments: { refund_order: { reason_code: 'refunds.codes' } } },
      'ARGCHECK_UNKNOWN_SET',
    ],
    [
      'bad path syntax',
      { checkedArguments: { refund_order: { 'items[0].code': 'refunds.reason_codes' } } },
      'ARGCHECK_INVALID_PATH',
    ],
    ['an unknown mode', { mode: 'enforce' as never }, 'ARGCHECK_INVALID_OPTION'],
    ['a negative listAllUpTo', { listAllUpTo: -1 }, 'ARGCHECK_INVALID_OPTION'],
    ['a fractional suggestionCount', { suggestionCount: 1.5 }, 'ARGCHECK_INVALID_OPTION'],
    ['a tiny maxRepairMessageLength', { maxRepairMessageLength: 10 }, 'ARGCHECK_INVALID_OPTION'],
    ['a string quotePrefixLength', { quotePrefixLength: '40' as never }, 'ARGCHECK_INVALID_OPTION'],
    [
      'checkedArguments that is not an object',
      { checkedArguments: null as never },
      'ARGCHECK_INVALID_OPTION',
    ],
    [
      'a tool entry that is not an object',
      { checkedArguments: { refund_order: 'reason_code' as never } },
      'ARGCHECK_INVALID_OPTION',
    ],
    ['a provider that is not one', { valueSets: {} as never }, 'ARGCHECK_INVALID_OPTION'],
  ];
  for (const [what, options, code] of cases) {
    it(`throws ${code} at construction for ${what}`, () => {
      expect(codeOf(options)).to.equal(code);
    });
  }
});
