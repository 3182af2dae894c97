import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import type { CheckMode, CheckOutcome } from '../../src/types.js';
import { fixedProvider, REFUND_CODES } from '../helpers/fixed-provider.js';
import { recordFigure } from '@argcheck/testing/figures';

// Arguments built to break a checker, and arguments far larger than a model
// usually writes: check() never throws, never hands back anything but the
// caller's own arguments, and finds nothing where nothing could be read —
// except JSON text that is not a JSON object, which a checked tool reports
// `unreadable` (docs/decisions/0004-json-text-arguments.md).

const valueSets = fixedProvider({ 'refunds.reason_codes': REFUND_CODES });
const checkedArguments = {
  refund_order: { reason_code: 'refunds.reason_codes' },
  transfer_stock: { 'items[].warehouse_code': 'refunds.reason_codes' },
};

function boom(): never {
  throw new Error('hostile');
}

/** Arguments nothing can be read from: each yields no finding and goes out untouched. */
function unreadable(): [string, unknown][] {
  const throwing = {};
  Object.defineProperty(throwing, 'reason_code', { enumerable: true, get: boom });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const traps = { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom };
  return [
    ['a getter that throws', throwing],
    ['a Proxy whose every trap throws', new Proxy({}, { ...traps, getPrototypeOf: boom })],
    ['a revoked Proxy', revoked.proxy],
    ['null arguments', null],
    ['an array for arguments', ['LATE']],
  ];
}

/** Arguments whose value is readable but not a string: a `not_string` mismatch. */
const notStrings: [string, unknown][] = [
  ['a Symbol value', Symbol('LATE')],
  ['a BigInt value', 10n],
  ['a function value', () => 'LATE'],
];

const MODES: CheckMode[] = ['observe', 'normalise', 'reject'];

describe('check(): hostile and huge arguments', () => {
  for (const mode of MODES) {
    const checker = createArgumentChecker({ valueSets, checkedArguments, mode });

    it(`finds nothing in arguments it cannot read, and lets the call through (${mode})`, () => {
      for (const [what, args] of unreadable()) {
        let outcome: CheckOutcome | undefined;
        expect(() => (outcome = checker.check('refund_order', args)), what).not.to.throw();
        expect(outcome, what).to.deep.equal({
          tool: 'refund_order',
          action: 'call',
          args,
          findings: [],
        });
        expect(outcome?.args, what).to.equal(args);
      }
    });

    it(`reports JSON text that is not JSON as unreadable, and lets the call through (${mode})`, () => {
      const args = '{"reason_code": "LATE"';
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

    it(`reports a Symbol, a BigInt or a function as not_string, never throwing (${mode})`, () => {
      for (const [what, value] of notStrings) {
        const args = { reason_code: value };
        const outcome = checker.check('refund_order', args);
        expect(outcome.args, what).to.equal(args);
        expect(
          outcome.findings.map((f) => (f.status === 'checked' ? f.shape : f.status)),
          what,
        ).to.deep.equal(['not_string']);
        expect(outcome.action, what).to.equal(mode === 'reject' ? 'reject' : 'call');
      }
    });
  }

  it('checks a cyclic argument object like any other', () => {
    const cyclic: Record<string, unknown> = { reason_code: 'LATE' };
    cyclic.self = cyclic;
    const checker = createArgumentChecker({ valueSets, checkedArguments, mode: 'reject' });
    const outcome = checker.check('refund_order', cyclic);
    expect([outcome.action, outcome.args === cyclic, outcome.findings.length]).to.deep.equal([
      'call',
      true,
      1,
    ]);
  });

  it('throws nothing and hands back the caller’s arguments for every hostile kind, in every mode', () => {
    const cyclic: Record<string, unknown> = { reason_code: 'LATE' };
    cyclic.self = cyclic;
    const kinds: [string, unknown][] = [
      ...unreadable(),
      ...notStrings.map(([what, value]): [string, unknown] => [what, { reason_code: value }]),
      ['a cyclic object', cyclic],
      ['JSON text that is not JSON', '{"reason_code": "LATE"'],
    ];
    let threw = 0;
    let handedBack = 0;
    const findings: Record<string, number> = {};
    for (const mode of MODES) {
      const checker = createArgumentChecker({ valueSets, checkedArguments, mode });
      for (const [, args] of kinds) {
        try {
          const outcome = checker.check('refund_order', args);
          if (outcome.args === args) handedBack += 1;
          for (const f of outcome.findings) {
            const kind = f.status === 'checked' ? (f.shape ?? 'in set') : f.reason;
            findings[kind] = (findings[kind] ?? 0) + 1;
          }
        } catch {
          threw += 1;
        }
      }
    }
    expect([threw, handedBack]).to.deep.equal([0, kinds.length * MODES.length]);
    expect(findings).to.deep.equal({ not_string: 9, 'in set': 3, unreadable: 3 });
    recordFigure(
      'hostile-arguments',
      `${threw} exceptions over ${kinds.length} kinds × ${MODES.length} modes, the caller’s own arguments handed back ${handedBack} times of ${handedBack}; findings: ${Object.entries(
        findings,
      )
        .map(([k, n]) => `${n} ${k === 'in set' ? 'in set (the cyclic object)' : `\`${k}\``}`)
        .join(', ')}, none for the ${unreadable().length} kinds nothing can be read from`,
    );
  });

  it('checks every element of a 100,000-element array path', () => {
    const checker = createArgumentChecker({ valueSets, checkedArguments });
    const items = Array.from({ length: 100_000 }, (_, i) => ({
      warehouse_code: i % 10 === 0 ? 'NOPE' : 'LATE',
    }));
    const findings = checker.check('transfer_stock', { items }).findings;
    expect(findings).to.have.length(100_000);
    const mismatches = findings.filter((f) => f.status === 'checked' && !f.inSet).length;
    expect(mismatches).to.equal(10_000);
    recordFigure(
      'array-path-100k',
      `${findings.length.toLocaleString('en-US')} findings for 100,000 elements, ${mismatches.toLocaleString('en-US')} of them mismatches (every tenth element)`,
    );
  });
});
