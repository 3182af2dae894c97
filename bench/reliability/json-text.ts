// Adversarial arguments sent as JSON text (issue 11, item 1): numbers JSON.parse
// would round, keys given twice, text that is not a JSON object. Through the
// real checker and instrumentation over static sets.
import {
  createArgumentChecker,
  createValueSetProvider,
  staticValueSet,
  type CheckMode,
} from '@argcheck/core';
import { pick, seededRandom, type Random } from '../lib/ids.js';
import { num } from '../lib/report.js';
import { CODES, callsChanged, instrumented } from './harness.js';
import { test, type FaultRow } from './table.js';

const CORE_REGRESSION = 'packages/core/test/regression';
const MODES: readonly CheckMode[] = ['observe', 'normalise', 'reject'];
const WAREHOUSES = ['AMS1', 'BER1', 'LHR2'];
const CHECKED = {
  refund_order: { reason_code: 'refunds', 'items[].warehouse_code': 'warehouses' },
};

/** The real provider of the refund codes and warehouses. */
async function sets() {
  const provider = createValueSetProvider({
    sources: { refunds: staticValueSet(CODES), warehouses: staticValueSet(WAREHOUSES) },
  });
  await provider.ready();
  return provider;
}

/** Number literals JSON.parse and JSON.stringify do not give back as written. */
const FRAGILE = ['9007199254740993', '1e400', '10.10'];
const NUMBERS = [...FRAGILE, '-0', '1.50E+2', '0.1e-7', '42'];
const SPACE = ['', ' ', '\n  ', '\t', '\r\n'];
/** Values of the checked arguments, as JSON tokens: members, fixable variants, invented ones. */
const REASONS = [
  '"LATE"',
  '"late"',
  '" damaged "',
  '"l\\u0061te"',
  '"Not As Described"',
  '"CUSTOMER_UNHAPPY"',
  '"DAMAGD"',
];
const BINS = ['"AMS1"', '"ams1"', '" lhr2 "', '"PARIS"', '"BER1"'];

/** A piece of generated JSON text; a checked token says which argument it is. */
type Piece = string | { token: string; bin: boolean };

/** A JSON object text, with the checked tokens marked (seeded). */
function jsonText(random: Random): Piece[] {
  const s = () => pick(random, SPACE);
  const other = (): Piece[] =>
    random() < 0.5
      ? [pick(random, NUMBERS)]
      : ['"', pick(random, ['A\\n\\u00e9', 'x', '\\"q\\"', '']), '"'];
  const members: Piece[][] = [];
  members.push(['"reason_code"', s(), ':', s(), { token: pick(random, REASONS), bin: false }]);
  for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
    members.push([`"n${i}"`, s(), ':', s(), ...other()]);
  }
  if (random() < 0.6) {
    const items: Piece[][] = [];
    for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
      items.push([
        '{',
        s(),
        '"warehouse_code"',
        ':',
        s(),
        { token: pick(random, BINS), bin: true },
        s(),
        ',"qty":',
        pick(random, NUMBERS),
        '}',
      ]);
    }
    members.push([
      '"items"',
      ':',
      s(),
      '[',
      ...items.flatMap((it, i) => (i ? [',', s(), ...it] : it)),
      ']',
    ]);
  }
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return ['{', s(), ...members.flatMap((m, i) => (i ? [',', s(), ...m] : m)), s(), '}'];
}

export const jsonTextArguments: FaultRow[] = [
  {
    area: 'Adversarial arguments',
    fault:
      'Normalise mode rewrote a JSON-text call by re-serialising all of it (9007199254740993 became …992, 10.10 became 10.1, 1e400 became null)',
    expected:
      'Only the rewritten string tokens change; every other byte of the text is the caller’s, as written. A call with nothing to rewrite goes out as the very string it came as.',
    provedBy: [
      test(
        `${CORE_REGRESSION}/normalise-reserialises-json-arguments.test.ts`,
        'changes no byte outside the rewritten string tokens, for any JSON text',
      ),
      test(
        `${CORE_REGRESSION}/normalise-reserialises-json-arguments.test.ts`,
        'keeps a big integer, 10.10 and 1e400 byte for byte when it rewrites reason_code',
      ),
    ],
    async measure() {
      const provider = await sets();
      const checker = createArgumentChecker({
        valueSets: provider,
        checkedArguments: CHECKED,
        mode: 'normalise',
      });
      // What a token must become: what the object path makes of its value alone.
      const rewrite = (token: string): string => {
        const o = checker.check('refund_order', { reason_code: JSON.parse(token) as string });
        const value = (o.args as { reason_code: string }).reason_code;
        return o.action === 'call_rewritten' ? JSON.stringify(value) : token;
      };
      const rewriteBin = (token: string): string => {
        const args = { items: [{ warehouse_code: JSON.parse(token) as string }] };
        const o = checker.check('refund_order', args);
        const value = (o.args as typeof args).items[0]?.warehouse_code;
        return o.action === 'call_rewritten' ? JSON.stringify(value) : token;
      };
      const random = seededRandom(1_111);
      const N = 500;
      let differ = 0;
      let rewritten = 0;
      let fragile = 0;
      let fragileKept = 0;
      for (let i = 0; i < N; i++) {
        const pieces = jsonText(random);
        const text = pieces.map((p) => (typeof p === 'string' ? p : p.token)).join('');
        const expected = pieces
          .map((p) => (typeof p === 'string' ? p : p.bin ? rewriteBin(p.token) : rewrite(p.token)))
          .join('');
        const outcome = checker.check('refund_order', text);
        if (outcome.args !== expected) differ += 1;
        if (outcome.action === 'call_rewritten') rewritten += 1;
        const literals = FRAGILE.filter((n) => text.includes(n));
        if (outcome.action === 'call_rewritten' && literals.length > 0) {
          fragile += 1;
          if (literals.every((n) => String(outcome.args).includes(n))) fragileKept += 1;
        }
      }
      provider.close();
      return {
        figure:
          `${differ} of ${num(N)} generated texts differ from the text with only its rewritten tokens replaced ` +
          `(${num(rewritten)} rewritten); 9007199254740993, 1e400 and 10.10 kept as written in ${fragileKept} of ${fragile} rewritten texts holding them`,
        data: { n: N, differ, rewritten, fragile, fragileKept },
      };
    },
  },
  {
    area: 'Adversarial arguments',
    fault:
      'A key given twice in JSON text (`{"reason_code":"CUSTOMER_UNHAPPY","reason_code":"LATE"}`) was checked once, by its last occurrence',
    expected:
      'Every occurrence is a finding of its own; reject mode rejects when any occurrence is rejected, whichever comes first.',
    provedBy: [
      test(
        `${CORE_REGRESSION}/duplicate-json-keys-check-last-only.test.ts`,
        'rejects when the first occurrence is invented and the last is a member',
      ),
      test(
        `${CORE_REGRESSION}/duplicate-json-keys-check-last-only.test.ts`,
        'counts each occurrence in observe mode and calls untouched',
      ),
    ],
    async measure() {
      const provider = await sets();
      const texts = [
        '{"reason_code":"CUSTOMER_UNHAPPY","reason_code":"LATE"}',
        '{"reason_code":"LATE","reason_code":"CUSTOMER_UNHAPPY"}',
        '{"reason_code":"LATE","reason_\\u0063ode":"CUSTOMER_UNHAPPY"}',
      ];
      const outcomes = MODES.map((mode) => {
        const checker = createArgumentChecker({
          valueSets: provider,
          checkedArguments: CHECKED,
          mode,
        });
        return texts.map((t) => checker.check('refund_order', t));
      });
      provider.close();
      const [observe, , reject] = outcomes;
      const actions = (reject ?? []).map((o) => o.action);
      return {
        figure:
          `reject: ${actions.map((a) => `\`${a}\``).join(', ')} for the invented value first, last, and under an escaped key; ` +
          `observe: ${(observe ?? []).map((o) => o.findings.length).join(', ')} findings, ${callsChanged(observe ?? [], texts)} calls changed`,
        data: { actions, findings: outcomes.map((m) => m.map((o) => o.findings.length)) },
      };
    },
  },
  {
    area: 'Adversarial arguments',
    fault:
      'JSON text that does not parse (a trailing comma) or is not an object: the checked tool’s arguments were invisible, counted nowhere',
    expected:
      'One `unavailable` finding, reason `unreadable`, per configured argument of the tool, counted in `tool_argument_check_unavailable{reason="unreadable"}`; the call goes out untouched in every mode.',
    provedBy: [
      test(
        'packages/instrumentation/test/regression/unreadable-arguments-not-counted.test.ts',
        'reject: counts each configured argument as unavailable, reason unreadable',
      ),
      test(
        `${CORE_REGRESSION}/unreadable-json-arguments-invisible.test.ts`,
        'reject: "{\\"reason_code\\":\\"LATE\\",}" is one unreadable finding per configured argument',
      ),
    ],
    async measure() {
      const texts = [
        '{"reason_code":"LATE",}',
        '{"reason_code":"LATE"',
        'not json',
        '',
        '"LATE"',
        '[{"reason_code":"LATE"}]',
        'null',
        '42',
      ];
      const arguments_ = Object.keys(CHECKED.refund_order).length;
      let counted = 0;
      let other = 0;
      let changed = 0;
      for (const mode of MODES) {
        const t = instrumented({
          valueSets: { refunds: staticValueSet(CODES), warehouses: staticValueSet(WAREHOUSES) },
          checkedArguments: CHECKED,
          mode,
        });
        await t.inst.ready();
        changed += callsChanged(
          texts.map((text) => t.inst.check('refund_order', text)),
          texts,
        );
        const byReason = (await t.collect()).by('tool_argument_check_unavailable', 'reason');
        counted += byReason.unreadable ?? 0;
        other += Object.values(byReason).reduce((a, b) => a + b, 0) - (byReason.unreadable ?? 0);
        await t.close();
      }
      const expected = texts.length * arguments_ * MODES.length;
      return {
        figure: `${num(counted)} counted \`unreadable\` of ${num(expected)} (${texts.length} texts × ${arguments_} configured arguments × 3 modes), ${other} otherwise; ${changed} calls changed`,
        data: { counted, expected, other, changed },
      };
    },
  },
];
