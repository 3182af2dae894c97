// Issue 11, item 1: in `normalise` mode a case rewrite of one argument of a
// JSON-string call re-serialised the whole object (parse, rewrite,
// `JSON.stringify`): 9007199254740993 became 9007199254740992 (another
// order's id), 10.10 became 10.1, 1e400 became null.
import { expect } from 'chai';
import fc from 'fast-check';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { jsonArguments } from '../helpers/json-texts.js';
import { recordFigure } from '@argcheck/testing/figures';

const valueSets = fixedProvider({
  'refunds.reason_codes': REFUND_CODES,
  'wms.warehouses': ['AMS1', 'BER1', 'LHR2'],
});
const checkedArguments = {
  refund_order: { reason_code: 'refunds.reason_codes' },
  transfer_stock: { 'items[].warehouse_code': 'wms.warehouses' },
};
const normalising = createArgumentChecker({ valueSets, checkedArguments, mode: 'normalise' });

describe('regression: normalise re-serialised JSON-string arguments', () => {
  it('keeps a big integer, 10.10 and 1e400 byte for byte when it rewrites reason_code', () => {
    const text =
      '{"order_id": 9007199254740993, "amount": 10.10, "ref": 1e400, "reason_code": "late"}';
    const outcome = normalising.check('refund_order', text);
    expect([outcome.action, outcome.args]).to.deep.equal([
      'call_rewritten',
      '{"order_id": 9007199254740993, "amount": 10.10, "ref": 1e400, "reason_code": "LATE"}',
    ]);
  });

  it('keeps -0, exponents, whitespace and newlines around a rewrite inside an array', () => {
    const text =
      '{\n  "items": [\n    {"warehouse_code" : "ams1", "qty": -0},\n' +
      '\t{"qty": 1.50E+2, "warehouse_code":"BER1"},\r\n    {"warehouse_code": " lhr2 "}\n  ]\n}';
    const outcome = normalising.check('transfer_stock', text);
    expect([outcome.action, outcome.args]).to.deep.equal([
      'call_rewritten',
      '{\n  "items": [\n    {"warehouse_code" : "AMS1", "qty": -0},\n' +
        '\t{"qty": 1.50E+2, "warehouse_code":"BER1"},\r\n    {"warehouse_code": "LHR2"}\n  ]\n}',
    ]);
  });

  it('reads unicode escapes in keys and values, and leaves the other escapes as written', () => {
    const text = '{"reason_\\u0063ode":"l\\u0061te","note":"\\u0041\\n\\u00e9","\\u0041":1}';
    const outcome = normalising.check('refund_order', text);
    expect([outcome.action, outcome.args, outcome.findings.map((f) => f.value)]).to.deep.equal([
      'call_rewritten',
      '{"reason_\\u0063ode":"LATE","note":"\\u0041\\n\\u00e9","\\u0041":1}',
      ['late'],
    ]);
  });

  it('leaves a call without rewrites as the very string it was given', () => {
    const text = '{ "reason_code" : "LATE" , "amount": 10.10 }';
    const outcome = normalising.check('refund_order', text);
    expect([outcome.action, outcome.args]).to.deep.equal(['call', text]);
  });

  it('changes no byte outside the rewritten string tokens, for any JSON text', () => {
    const texts = { all: 0, rewritten: 0 };
    fc.assert(
      fc.property(jsonArguments, (generated) => {
        const outcome = normalising.check(generated.tool, generated.text);
        texts.all += 1;
        if (outcome.action === 'call_rewritten') texts.rewritten += 1;
        // What each checked token must become, decided by the object-args path.
        let expected = '';
        let at = 0;
        for (const token of generated.checkedTokens) {
          expected += generated.text.slice(at, token.start);
          const alone = normalising.check(generated.tool, objectHolding(generated.tool, token));
          expected +=
            alone.action === 'call_rewritten'
              ? JSON.stringify(valueIn(generated.tool, alone.args))
              : generated.text.slice(token.start, token.end);
          at = token.end;
        }
        expected += generated.text.slice(at);
        expect(outcome.args).to.equal(expected);
        expect(outcome.action).to.equal(expected === generated.text ? 'call' : 'call_rewritten');
        // JSON.parse of the result is the parse of the input with only those
        // values changed: what the object-args path makes of the parsed input.
        const parsed = normalising.check(generated.tool, JSON.parse(generated.text));
        expect(JSON.parse(outcome.args as string)).to.deep.equal(parsed.args);
      }),
      { numRuns: 500 },
    );
    recordFigure(
      'json-text-reserialised',
      `${texts.all} generated JSON texts (fast-check), ${texts.rewritten} of them rewritten: in each, every byte outside the rewritten string tokens as written, and the untouched ones the very string given`,
    );
  });
});

function objectHolding(tool: string, token: { value: string }): unknown {
  return tool === 'refund_order'
    ? { reason_code: token.value }
    : { items: [{ warehouse_code: token.value }] };
}

function valueIn(tool: string, args: unknown): unknown {
  const a = args as { reason_code?: unknown; items?: { warehouse_code: unknown }[] };
  return tool === 'refund_order' ? a.reason_code : a.items?.[0]?.warehouse_code;
}
