// Issue 11, item 1: a JSON-string argument that does not parse (a trailing
// comma) or parses to something other than an object yielded no finding and
// no counter: a checked tool whose arguments could not be read was invisible.
// It is now one `unavailable: unreadable` finding per configured argument,
// and the call still goes out untouched (fail open, in every mode).
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { CheckMode } from '../../src/types.js';
import { fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';

const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'catalog.components': ['CMP-1', 'CMP-2'],
  'identity.active_handles': 'timeout',
});
const checkedArguments = {
  refund_order: { reason_code: 'refunds.reason_codes' },
  create_ticket: { component_id: 'catalog.components', assignee: 'identity.active_handles' },
};
const MODES: CheckMode[] = ['observe', 'normalise', 'reject'];
const UNREADABLE = [
  '{"reason_code":"LATE",}',
  '{"component_id":"CMP-1"',
  'not json',
  '',
  '"LATE"',
  '[{"reason_code":"LATE"}]',
  'null',
  '42',
];

const unreadable = (argument: string, set: string) => ({
  argument,
  set,
  value: undefined,
  status: 'unavailable',
  reason: 'unreadable',
});

describe('regression: unreadable JSON-string arguments were invisible', () => {
  for (const mode of MODES) {
    const checker = createArgumentChecker({ valueSets, checkedArguments, mode });
    for (const text of UNREADABLE) {
      it(`${mode}: ${JSON.stringify(text)} is one unreadable finding per configured argument`, () => {
        expect(checker.check('create_ticket', text)).to.deep.equal({
          tool: 'create_ticket',
          action: 'call',
          args: text,
          findings: [
            unreadable('component_id', 'catalog.components'),
            unreadable('assignee', 'identity.active_handles'),
          ],
        });
        expect(checker.check('refund_order', text).findings).to.deep.equal([
          unreadable('reason_code', 'refunds.reason_codes'),
        ]);
      });
    }
  }

  it('says nothing of a tool with no checked arguments', () => {
    const checker = createArgumentChecker({ valueSets, checkedArguments, mode: 'reject' });
    expect(checker.check('search_orders', '{"q":"x",}')).to.deep.equal({
      tool: 'search_orders',
      action: 'call',
      args: '{"q":"x",}',
      findings: [],
    });
  });

  it('still yields no findings for arguments that are neither a string nor an object', () => {
    const checker = createArgumentChecker({ valueSets, checkedArguments });
    for (const args of [undefined, 42, true]) {
      expect(checker.check('refund_order', args).findings).to.deep.equal([]);
    }
  });
});
