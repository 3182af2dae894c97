// Issue 11, item 1: `{"reason_code":"CUSTOMER_UNHAPPY","reason_code":"LATE"}`
// passed `reject` as `call`: the check read the last occurrence (what
// JSON.parse keeps), and a server that takes the first gets the invented value.
// Every occurrence of a checked key is now a finding of its own.
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { CheckMode } from '../../src/types.js';
import { fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'wms.warehouses': ['AMS1', 'BER1', 'LHR2'],
});
const checkedArguments = {
  refund_order: { reason_code: 'refunds.reason_codes' },
  transfer_stock: { 'items[].warehouse_code': 'wms.warehouses' },
};
const checker = (mode: CheckMode) => createArgumentChecker({ valueSets, checkedArguments, mode });

const invented = {
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  value: 'CUSTOMER_UNHAPPY',
  status: 'checked',
  inSet: false,
  inSetNormalised: false,
  shape: 'invented',
};
const late = {
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  value: 'LATE',
  status: 'checked',
  inSet: true,
  inSetNormalised: true,
};

describe('regression: duplicate keys in JSON-string arguments were checked once', () => {
  const text = '{"reason_code":"CUSTOMER_UNHAPPY","reason_code":"LATE"}';

  it('rejects when the first occurrence is invented and the last is a member', () => {
    const outcome = checker('reject').check('refund_order', text);
    expect(outcome).to.deep.equal({
      tool: 'refund_order',
      action: 'reject',
      args: text,
      findings: [{ ...invented, suggestions: [] }, late],
      repairMessage:
        'refund_order was not called: an argument is not a legal value. ' +
        '"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", ' +
        '"NOT_AS_DESCRIBED", "OTHER", "WRONG_ITEM" (got "CUSTOMER_UNHAPPY"). ' +
        'Call the tool again using only the listed values.',
    });
    // The invented value first, last, and under a key written with an escape.
    const texts = [
      text,
      '{"reason_code":"LATE","reason_code":"CUSTOMER_UNHAPPY"}',
      '{"reason_code":"LATE","reason_\\u0063ode":"CUSTOMER_UNHAPPY"}',
    ];
    const outcomes = texts.map((t) => checker('reject').check('refund_order', t));
    expect(outcomes.map((o) => [o.action, o.findings.length])).to.deep.equal([
      ['reject', 2],
      ['reject', 2],
      ['reject', 2],
    ]);
    recordFigure(
      'json-duplicate-keys',
      `reject mode: ${outcomes.map((o) => `\`${o.action}\``).join(', ')} for the invented value first, last, and under an escaped key, with ${outcomes.map((o) => o.findings.length).join(', ')} findings`,
    );
  });

  it('counts each occurrence in observe mode and calls untouched', () => {
    expect(checker('observe').check('refund_order', text)).to.deep.equal({
      tool: 'refund_order',
      action: 'call',
      args: text,
      findings: [invented, late],
    });
  });

  it('rewrites each fixable occurrence in place in normalise mode', () => {
    const outcome = checker('normalise').check(
      'refund_order',
      '{"reason_code":"late", "reason_code" : " damaged ","reason_code":"OTHER"}',
    );
    expect([outcome.action, outcome.args, outcome.findings.length]).to.deep.equal([
      'call_rewritten',
      '{"reason_code":"LATE", "reason_code" : "DAMAGED","reason_code":"OTHER"}',
      3,
    ]);
  });

  it('checks repeated keys inside array elements and repeated containers', () => {
    const inElement = '{"items":[{"warehouse_code":"AMS1","warehouse_code":"PARIS"}]}';
    const inContainer =
      '{"items":[{"warehouse_code":"PARIS"}],"items":[{"warehouse_code":"ams1"}]}';
    const reject = checker('reject');
    expect(reject.check('transfer_stock', inElement).action).to.equal('reject');
    const outcome = reject.check('transfer_stock', inContainer);
    expect([
      outcome.action,
      outcome.findings.map((f) => f.value),
      outcome.repairMessage?.includes('"items[0].warehouse_code" must be one of'),
    ]).to.deep.equal(['reject', ['PARIS', 'ams1'], true]);
    expect(checker('normalise').check('transfer_stock', inContainer).args).to.equal(
      '{"items":[{"warehouse_code":"PARIS"}],"items":[{"warehouse_code":"AMS1"}]}',
    );
  });

  it('reads a key written with escapes as the same key', () => {
    const outcome = checker('reject').check(
      'refund_order',
      '{"reason_code":"LATE","reason_\\u0063ode":"CUSTOMER_UNHAPPY"}',
    );
    expect([outcome.action, outcome.findings.map((f) => f.value)]).to.deep.equal([
      'reject',
      ['LATE', 'CUSTOMER_UNHAPPY'],
    ]);
  });
});
