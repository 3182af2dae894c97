import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { deepFreeze, fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'wms.warehouses': ['AMS1', 'BER1', 'LHR2'],
  'identity.active_handles': 'fetch_failed',
});
const checker = createArgumentChecker({
  valueSets,
  checkedArguments: {
    refund_order: { reason_code: 'refunds.reason_codes' },
    transfer_stock: {
      'items[].warehouse_code': 'wms.warehouses',
      'filters.status': 'wms.warehouses',
    },
    create_ticket: { assignee: 'identity.active_handles' },
  },
});

describe('check(): membership', () => {
  it('finds an in-set value', () => {
    expect(checker.check('refund_order', { order_id: 'o-1', reason_code: 'LATE' })).to.deep.equal({
      tool: 'refund_order',
      action: 'call',
      args: { order_id: 'o-1', reason_code: 'LATE' },
      findings: [
        {
          argument: 'reason_code',
          set: 'refunds.reason_codes',
          value: 'LATE',
          status: 'checked',
          inSet: true,
          inSetNormalised: true,
        },
      ],
    });
  });

  it('reports an invented value as a mismatch and still calls in observe mode', () => {
    const args = deepFreeze({ reason_code: 'CUSTOMER_UNHAPPY' });
    const outcome = checker.check('refund_order', args);
    expect(outcome.action).to.equal('call');
    expect(outcome.args).to.equal(args);
    expect(outcome.findings).to.deep.equal([
      {
        argument: 'reason_code',
        set: 'refunds.reason_codes',
        value: 'CUSTOMER_UNHAPPY',
        status: 'checked',
        inSet: false,
        inSetNormalised: false,
        shape: 'invented',
      },
    ]);
  });

  for (const value of [42, true, null, { code: 'LATE' }, ['LATE']]) {
    it(`calls ${JSON.stringify(value)} not_string`, () => {
      expect(checker.check('refund_order', { reason_code: value }).findings).to.deep.equal([
        {
          argument: 'reason_code',
          set: 'refunds.reason_codes',
          value,
          status: 'checked',
          inSet: false,
          inSetNormalised: false,
          shape: 'not_string',
        },
      ]);
    });
  }

  it('checks every element of an array path and nested properties', () => {
    const outcome = checker.check('transfer_stock', {
      items: [{ warehouse_code: 'AMS1' }, { warehouse_code: 'PAR9' }, { sku: 'x' }],
      filters: { status: 'BER1' },
    });
    expect(
      outcome.findings.map((f) => [f.argument, f.value, f.status === 'checked' && f.inSet]),
    ).to.deep.equal([
      ['items[].warehouse_code', 'AMS1', true],
      ['items[].warehouse_code', 'PAR9', false],
      ['filters.status', 'BER1', true],
    ]);
  });

  it('reads OpenAI-style JSON-string arguments and hands the same string back', () => {
    const args = '{"reason_code":"LATE"}';
    const outcome = checker.check('refund_order', args);
    expect(outcome.args).to.equal(args);
    expect(outcome.findings).to.have.length(1);
  });

  for (const args of [undefined, null, 42, ['LATE'], true]) {
    it(`yields no findings for arguments ${JSON.stringify(args)}`, () => {
      expect(checker.check('refund_order', args)).to.deep.equal({
        tool: 'refund_order',
        action: 'call',
        args,
        findings: [],
      });
    });
  }

  // A JSON text that is not an object leaves every checked argument unread,
  // and says so (docs/decisions/0004-unreadable-arguments.md).
  for (const args of ['not json', '"LATE"', '[1,2]']) {
    it(`reports arguments ${JSON.stringify(args)} unreadable and calls`, () => {
      expect(checker.check('refund_order', args)).to.deep.equal({
        tool: 'refund_order',
        action: 'call',
        args,
        findings: [
          {
            argument: 'reason_code',
            set: 'refunds.reason_codes',
            value: undefined,
            status: 'unavailable',
            reason: 'unreadable',
          },
        ],
      });
    });
  }

  it('yields no findings for absent arguments and unchecked tools', () => {
    expect(checker.check('refund_order', { order_id: 'o-1' }).findings).to.deep.equal([]);
    expect(checker.check('search_orders', { reason_code: 'nope' }).findings).to.deep.equal([]);
    expect(checker.check('toString', { reason_code: 'nope' }).findings).to.deep.equal([]);
  });

  it('reports an unavailable set and lets the call through untouched', () => {
    const args = { assignee: 'someone' };
    expect(checker.check('create_ticket', args)).to.deep.equal({
      tool: 'create_ticket',
      action: 'call',
      args,
      findings: [
        {
          argument: 'assignee',
          set: 'identity.active_handles',
          value: 'someone',
          status: 'unavailable',
          reason: 'fetch_failed',
        },
      ],
    });
  });

  it('survives arguments whose getters throw', () => {
    const hostile = {
      get reason_code(): string {
        throw new Error('boom');
      },
    };
    expect(checker.check('refund_order', hostile)).to.deep.equal({
      tool: 'refund_order',
      action: 'call',
      args: hostile,
      findings: [],
    });
  });

  it('treats prototype keys as values like any other string', () => {
    const keys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const shapes: string[] = [];
    for (const value of keys) {
      const finding = checker.check('refund_order', { reason_code: value }).findings[0];
      expect(finding && finding.status === 'checked' && finding.inSet).to.equal(false);
      if (finding?.status === 'checked') shapes.push(`\`${finding.shape}\``);
    }
    expect(Object.prototype).to.not.have.property('LATE');
    recordFigure(
      'prototype-keys',
      `0 of ${keys.length} in set against the six refund codes; classified ${[...new Set(shapes)].join(', ')}`,
    );
  });
});
