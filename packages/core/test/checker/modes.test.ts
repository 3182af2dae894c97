import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { CheckMode } from '../../src/types.js';
import { deepFreeze, fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

const COMPONENTS = Array.from({ length: 500 }, (_, i) => `CMP-${String(i).padStart(4, '0')}`);
const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'wms.warehouses': ['AMS1', 'BER1', 'LHR2'],
  'catalog.components': COMPONENTS,
  'identity.active_handles': 'timeout',
});
const checkedArguments = {
  refund_order: { reason_code: 'refunds.reason_codes' },
  transfer_stock: { 'items[].warehouse_code': 'wms.warehouses' },
  create_ticket: { component_id: 'catalog.components', assignee: 'identity.active_handles' },
};
const checkerFor = (mode: CheckMode) =>
  createArgumentChecker({ valueSets, checkedArguments, mode });

describe('check(): modes', () => {
  describe('observe', () => {
    const checker = checkerFor('observe');
    it('calls with the arguments untouched, whatever the shape', () => {
      for (const code of ['damaged', 'Not as described', 'CUSTOMER_UNHAPPY', 'charged twice']) {
        const args = deepFreeze({ reason_code: code });
        const outcome = checker.check('refund_order', args);
        expect([outcome.action, outcome.args, outcome.repairMessage]).to.deep.equal([
          'call',
          args,
          undefined,
        ]);
      }
    });
  });

  describe('normalise', () => {
    const checker = checkerFor('normalise');
    it('rewrites case and format variants to the canonical member', () => {
      const args = deepFreeze({ order_id: 'o-1', reason_code: ' not-as-described ' });
      expect(checker.check('refund_order', args)).to.deep.equal({
        tool: 'refund_order',
        action: 'call_rewritten',
        args: { order_id: 'o-1', reason_code: 'NOT_AS_DESCRIBED' },
        findings: [
          {
            argument: 'reason_code',
            set: 'refunds.reason_codes',
            value: ' not-as-described ',
            status: 'checked',
            inSet: false,
            inSetNormalised: true,
            shape: 'format',
            canonical: 'NOT_AS_DESCRIBED',
          },
        ],
      });
      expect(args.reason_code).to.equal(' not-as-described ');
    });

    it('rewrites inside arrays and keeps the JSON-string form', () => {
      const outcome = checker.check(
        'transfer_stock',
        '{"items":[{"warehouse_code":"ams1"},{"warehouse_code":"BER1"}]}',
      );
      expect([outcome.action, outcome.args]).to.deep.equal([
        'call_rewritten',
        '{"items":[{"warehouse_code":"AMS1"},{"warehouse_code":"BER1"}]}',
      ]);
    });

    it('leaves aliases, near misses and inventions alone and calls', () => {
      for (const code of ['charged twice', 'DAMAGD', 'CUSTOMER_UNHAPPY', 7]) {
        const outcome = checker.check('refund_order', { reason_code: code });
        expect([outcome.action, outcome.args]).to.deep.equal(['call', { reason_code: code }]);
      }
    });
  });

  describe('reject', () => {
    const checker = checkerFor('reject');

    it('rejects an invented value with a message listing the legal values, sorted', () => {
      const outcome = checker.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
      expect(outcome.action).to.equal('reject');
      expect(outcome.repairMessage).to.equal(
        'refund_order was not called: an argument is not a legal value. ' +
          '"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", ' +
          '"NOT_AS_DESCRIBED", "OTHER", "WRONG_ITEM" (got "CUSTOMER_UNHAPPY"). ' +
          'Call the tool again using only the listed values.',
      );
    });

    it('still rewrites case and format variants instead of rejecting them', () => {
      const outcome = checker.check('refund_order', { reason_code: 'late' });
      expect([outcome.action, outcome.args]).to.deep.equal([
        'call_rewritten',
        { reason_code: 'LATE' },
      ]);
    });

    it('rejects an alias, a near miss and a non-string', () => {
      for (const code of ['charged twice', 'DAMAGD', 42]) {
        expect(checker.check('refund_order', { reason_code: code }).action).to.equal('reject');
      }
    });

    it('names the closest members and the size for a large set', () => {
      const outcome = checker.check('create_ticket', { component_id: 'CMP-04O7' });
      expect(outcome.repairMessage).to.match(
        /^create_ticket was not called: an argument is not a legal value\. "component_id" must be a member of catalog\.components \(500 values; got "CMP-04O7"\)\. Closest: "CMP-0407"/,
      );
      const finding = outcome.findings[0];
      expect(finding?.status === 'checked' && finding.suggestions?.[0]).to.equal('CMP-0407');
    });

    it('never rejects when the set is unavailable', () => {
      const outcome = checker.check('create_ticket', { assignee: 'nobody' });
      expect([outcome.action, outcome.repairMessage]).to.deep.equal(['call', undefined]);
    });

    it('describes each rejected element by its concrete location', () => {
      const outcome = checker.check('transfer_stock', {
        items: [{ warehouse_code: 'AMS1' }, { warehouse_code: 'PARIS' }],
      });
      expect(outcome.repairMessage).to.include('"items[1].warehouse_code" must be one of: "AMS1"');
    });

    it('bounds the message and quotes only a prefix of a huge value', () => {
      const huge = 'X'.repeat(10_000_000);
      const outcome = checker.check('refund_order', { reason_code: huge });
      expect(outcome.repairMessage).to.include(`(got "${'X'.repeat(40)}"…)`);
      expect(outcome.repairMessage!.length).to.be.at.most(1_000);
      const [finding] = outcome.findings;
      recordFigure(
        'ten-mb-value',
        `a 10,000,000-character value: \`${finding?.status === 'checked' ? finding.shape : finding?.status}\`, rejected with a repair message of ${outcome.repairMessage?.length} characters quoting its first 40`,
      );
      const many = createArgumentChecker({
        valueSets,
        mode: 'reject',
        maxRepairMessageLength: 200,
        checkedArguments,
      }).check('transfer_stock', {
        items: Array.from({ length: 50 }, () => ({ warehouse_code: 'NOPE' })),
      });
      expect(many.repairMessage!.length).to.be.at.most(200);
    });
  });
});
