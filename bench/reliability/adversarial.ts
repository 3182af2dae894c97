// Adversarial arguments: values and argument objects built to break the
// checker, through the real checker over a static set.
import {
  createArgumentChecker,
  createValueSetProvider,
  type ArgumentCheckerOptions,
} from '@argcheck/core';
import { seededRandom, type Random } from '../lib/ids.js';
import { num } from '../lib/report.js';
import { nowNs } from '../lib/stats.js';
import { CHECKED, refunds } from './harness.js';
import { test, type FaultRow } from './table.js';

const MEMBERSHIP = 'packages/core/test/checker/membership.test.ts';
const PROPERTIES = 'packages/core/test/checker/properties.test.ts';
const ROBUSTNESS = 'packages/core/test/match/robustness.test.ts';
const HOSTILE = 'packages/core/test/checker/hostile-arguments.test.ts';

/** A ready provider of the refund codes, and a checker over it (`CHECKED`, observe, unless `options` say). */
async function refundsChecker(options: Partial<ArgumentCheckerOptions> = {}) {
  const provider = createValueSetProvider({ sources: refunds() });
  await provider.ready();
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: CHECKED,
    ...options,
  });
  return { provider, checker };
}

function boom(): never {
  throw new Error('hostile');
}

/** Arguments built to break a checker. */
function hostileArguments(): [string, unknown][] {
  const throwing = {};
  Object.defineProperty(throwing, 'reason_code', { enumerable: true, get: boom });
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const cyclic: Record<string, unknown> = { reason_code: 'LATE' };
  cyclic.self = cyclic;
  const traps = { get: boom, has: boom, ownKeys: boom, getOwnPropertyDescriptor: boom };
  return [
    ['a getter that throws', throwing],
    ['a Proxy whose every trap throws', new Proxy({}, { ...traps, getPrototypeOf: boom })],
    ['a revoked Proxy', revoked.proxy],
    ['a cyclic object', cyclic],
    ['JSON text that is not JSON', '{"reason_code": "LATE"'],
    ['a Symbol value', { reason_code: Symbol('LATE') }],
    ['a BigInt value', { reason_code: 10n }],
    ['a function value', { reason_code: () => 'LATE' }],
    ['null arguments', null],
    ['an array for arguments', ['LATE']],
  ];
}

const LEAVES = ['LATE', 'late', '', '__proto__', 'constructor', 'x'.repeat(300), 0, -1, 1e308,
  true, false, null, 'ℒ𝒜𝒯ℰ', '\ud800']; // prettier-ignore
const KEYS = ['reason_code', 'items', 'warehouse_code', '__proto__', 'toString'];

/** Random JSON-like argument trees (seeded). */
function randomTree(random: Random, depth = 0): unknown {
  const r = random();
  if (depth > 3 || r < 0.3) return LEAVES[Math.floor(random() * LEAVES.length)];
  if (r < 0.6)
    return Array.from({ length: Math.floor(random() * 4) }, () => randomTree(random, depth + 1));
  const out = {};
  for (let k = 0; k < 1 + Math.floor(random() * 3); k++) {
    Object.defineProperty(out, KEYS[Math.floor(random() * KEYS.length)] ?? 'x', {
      value: randomTree(random, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export const adversarial: FaultRow[] = [
  {
    area: 'Adversarial arguments',
    fault:
      'Arguments built to break the checker: throwing getters, hostile and revoked Proxies, cycles, Symbols, BigInts, functions, broken JSON text',
    expected:
      'No exception ever reaches the caller; the call goes out untouched. JSON text that is not JSON is one `unreadable` finding per configured argument; arguments nothing can be read from (throwing getters, Proxies, `null`) give no findings.',
    provedBy: [
      test(MEMBERSHIP, 'survives arguments whose getters throw'),
      test(
        HOSTILE,
        'finds nothing in arguments it cannot read, and lets the call through (reject)',
      ),
      test(
        HOSTILE,
        'reports a Symbol, a BigInt or a function as not_string, never throwing (reject)',
      ),
      test(HOSTILE, 'checks a cyclic argument object like any other'),
      test(
        HOSTILE,
        'reports JSON text that is not JSON as unreadable, and lets the call through (reject)',
      ),
    ],
    async measure() {
      const provider = createValueSetProvider({ sources: refunds() });
      await provider.ready();
      let threw = 0;
      let changed = 0;
      let unreadable = 0;
      const cases = hostileArguments();
      for (const mode of ['observe', 'normalise', 'reject'] as const) {
        const checker = createArgumentChecker({
          valueSets: provider,
          checkedArguments: CHECKED,
          mode,
        });
        for (const [, args] of cases) {
          try {
            const o = checker.check('refund_order', args);
            if (o.args !== args || (o.action === 'reject' && o.findings.length === 0)) changed += 1;
            for (const f of o.findings)
              if (f.status === 'unavailable' && f.reason === 'unreadable') unreadable += 1;
          } catch {
            threw += 1;
          }
        }
      }
      provider.close();
      return {
        figure: `${threw} exceptions and ${changed} changed calls over ${cases.length} kinds × 3 modes; ${unreadable} \`unreadable\` findings (the broken JSON text, once per mode)`,
        data: { threw, changed, unreadable, kinds: cases.map(([k]) => k) },
      };
    },
  },
  {
    area: 'Adversarial arguments',
    fault:
      'Random argument trees (seeded): prototype keys, empty strings, lone surrogates, long strings, nesting',
    expected: 'Never throws, never mutates its input; every mismatch has exactly one shape.',
    provedBy: [
      test(PROPERTIES, 'never throws, never mutates, and every mismatch has exactly one shape'),
      test(ROBUSTNESS, 'handles lone surrogates in values and members without throwing'),
    ],
    async measure() {
      const { provider, checker } = await refundsChecker({
        checkedArguments: { t: { reason_code: 'refunds', 'items[].warehouse_code': 'refunds' } },
        mode: 'normalise',
      });
      const random = seededRandom(99);
      let threw = 0;
      let mutated = 0;
      let shapeless = 0;
      const N = 20_000;
      for (let i = 0; i < N; i++) {
        const args = randomTree(random);
        const before = JSON.stringify(args);
        try {
          const o = checker.check('t', args);
          for (const f of o.findings)
            if (f.status === 'checked' && !f.inSet && f.shape === undefined) shapeless += 1;
        } catch {
          threw += 1;
        }
        if (JSON.stringify(args) !== before) mutated += 1;
      }
      provider.close();
      return {
        figure: `${threw} exceptions, ${mutated} mutated inputs, ${shapeless} mismatches without a shape in ${num(N)} trees`,
        data: { threw, mutated, shapeless, n: N },
      };
    },
  },
  {
    area: 'Adversarial arguments',
    fault: 'Prototype keys as values (`__proto__`, `constructor`, `toString`, `hasOwnProperty`)',
    expected:
      'Never members unless the owner lists them; they are classified like any other string.',
    provedBy: [
      test(ROBUSTNESS, 'never treats prototype keys as members unless listed'),
      test(MEMBERSHIP, 'treats prototype keys as values like any other string'),
    ],
    async measure() {
      const { provider, checker } = await refundsChecker();
      const keys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
      const inSet = keys.filter((k) => {
        const f = checker.check('refund_order', { reason_code: k }).findings[0];
        return f?.status === 'checked' && f.inSet;
      }).length;
      provider.close();
      return { figure: `${inSet} of ${keys.length} in set`, data: { inSet } };
    },
  },
  {
    area: 'Adversarial arguments',
    fault: 'A 10 MB string as the value, in reject mode',
    expected:
      'Classified `invented` without being examined; the repair message quotes a short prefix and stays bounded.',
    provedBy: [
      test(ROBUSTNESS, 'classifies a 10 MB string as invented, with no suggestions'),
      test(
        'packages/core/test/checker/modes.test.ts',
        'bounds the message and quotes only a prefix of a huge value',
      ),
    ],
    async measure() {
      const { provider, checker } = await refundsChecker({ mode: 'reject' });
      const value = 'LATE'.repeat(2_500_000);
      const t0 = nowNs();
      const o = checker.check('refund_order', { reason_code: value });
      const ms = (nowNs() - t0) / 1e6;
      provider.close();
      const f = o.findings[0];
      const shape = f?.status === 'checked' ? f.shape : f?.status;
      const message = o.repairMessage?.length ?? 0;
      return {
        figure: `\`${shape}\` in ${num(ms, 2)} ms; repair message ${num(message)} characters`,
        data: { ms, shape, message },
      };
    },
  },
  {
    area: 'Adversarial arguments',
    fault: 'An array path with 100,000 elements (`items[].warehouse_code`)',
    expected: 'Every element is checked; cost grows with the elements, not with anything else.',
    provedBy: [
      test(MEMBERSHIP, 'checks every element of an array path and nested properties'),
      test(HOSTILE, 'checks every element of a 100,000-element array path'),
    ],
    async measure() {
      const { provider, checker } = await refundsChecker({
        checkedArguments: { transfer_stock: { 'items[].warehouse_code': 'refunds' } },
      });
      const items = Array.from({ length: 100_000 }, (_, i) => ({
        warehouse_code: i % 10 ? 'LATE' : 'NOPE',
      }));
      checker.check('transfer_stock', { items: items.slice(0, 1_000) });
      const t0 = nowNs();
      const o = checker.check('transfer_stock', { items });
      const ms = (nowNs() - t0) / 1e6;
      provider.close();
      return {
        figure: `${num(o.findings.length)} findings in ${num(ms)} ms (${num((ms * 1e6) / items.length)} ns per element)`,
        data: { findings: o.findings.length, ms },
      };
    },
  },
];
