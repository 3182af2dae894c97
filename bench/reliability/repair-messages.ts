// Repair messages (issue 11, items 4 and 7): the work a reject-mode check does
// to write one, and what the text it writes may contain. The real provider and
// checker over static sets; the work is counted through the public
// ValueSetProvider interface (bench/lib/counting-provider.ts).
import {
  createArgumentChecker,
  createValueSetProvider,
  staticValueSet,
  type ArgumentCheckerOptions,
} from '@argcheck/core';
import { countingProvider } from '../lib/counting-provider.js';
import { pick, seededRandom, type Random } from '../lib/ids.js';
import { num } from '../lib/report.js';
import { median, nowNs } from '../lib/stats.js';
import { test, type FaultRow } from './table.js';

const REGRESSION = 'packages/core/test/regression';
const ENCODES = `${REGRESSION}/repair-message-encodes-every-member.test.ts`;

/** A reject-mode checker of `tool`'s `code` over one static set, the set's work counted. */
async function rejecting(
  tool: string,
  members: readonly string[],
  options: Partial<ArgumentCheckerOptions> = {},
) {
  // Compiling megabytes of members is not what is measured.
  const real = createValueSetProvider({
    sources: { owner: staticValueSet(members) },
    fetchTimeoutMs: 120_000,
  });
  await real.ready();
  const { provider, work } = countingProvider(real);
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: { [tool]: { code: 'owner' } },
    mode: 'reject',
    ...options,
  });
  return { checker, work, close: () => real.close() };
}

/** Median milliseconds of `runs` calls of `fn`, each timed alone (after one untimed). */
function medianMs(fn: () => unknown, runs = 7): number {
  fn();
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = nowNs();
    fn();
    samples.push((nowNs() - t0) / 1e6);
  }
  return median(samples);
}

/** Well-formed UTF-16: no lone surrogate. */
function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** A C0 or C1 control, DEL, a line or paragraph separator, or a bidi control, raw. */
function hasRawControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x2028 ||
      c === 0x2029 ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0x200e ||
      c === 0x200f ||
      c === 0x061c
    ) {
      return true;
    }
  }
  return false;
}

const SPECIAL = [
  '\u2028',
  '\u2029',
  '\u202E',
  '\u2066',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u061c',
  '\uD800',
  '\uDFFF',
  '\u{1F600}',
  '"',
  '\\',
];

/** Random text of up to `max` units: specials, any code unit, or printable ASCII (seeded). */
function hostileText(random: Random, max: number, min = 0): string {
  let out = '';
  const n = min + Math.floor(random() * (max - min + 1));
  for (let i = 0; i < n; i++) {
    const r = random();
    out +=
      r < 0.3
        ? pick(random, SPECIAL)
        : r < 0.6
          ? String.fromCharCode(Math.floor(random() * 0x10000))
          : String.fromCharCode(32 + Math.floor(random() * 95));
  }
  return out;
}

export const repairMessages: FaultRow[] = [
  {
    area: 'Repair messages',
    fault:
      'Reject mode computed suggestions for every rejected element of an array, though the message shows a few (issue 11: 2,000 near misses against 100,000 members held the event loop for seconds)',
    expected:
      'Suggestions are computed only for the rejected arguments the repair message describes: the same work for 20,000 elements as for 20. Each element is still classified and counted.',
    provedBy: [
      test(
        `${REGRESSION}/reject-suggests-for-every-array-element.test.ts`,
        'does the same suggestion work for 20,000 elements as for 20',
      ),
      test(
        `${REGRESSION}/reject-suggests-for-every-array-element.test.ts`,
        'computes suggestions only for the arguments the repair message describes',
      ),
      { benchmark: 'hostile-sizes' },
    ],
    async measure() {
      const bins = Array.from({ length: 500 }, (_, i) => `BIN-${String(i).padStart(5, '0')}`);
      const real = createValueSetProvider({ sources: { bins: staticValueSet(bins) } });
      await real.ready();
      const { provider, work } = countingProvider(real);
      const checker = createArgumentChecker({
        valueSets: provider,
        checkedArguments: { transfer_stock: { 'items[].bin': 'bins' } },
        mode: 'reject',
      });
      // Near misses: one substitution from a member each.
      const items = (count: number) =>
        Array.from({ length: count }, (_, i) => ({ bin: bins[i % 500]!.replace(/.$/, 'X') }));
      const calls: Record<number, number> = {};
      let findings = 0;
      for (const count of [20, 2_000, 20_000]) {
        work.suggestCalls = 0;
        findings = checker.check('transfer_stock', { items: items(count) }).findings.length;
        calls[count] = work.suggestCalls;
      }
      const big = { items: items(20_000) };
      const ms = medianMs(() => checker.check('transfer_stock', big), 5);
      real.close();
      return {
        figure:
          `suggest() ran ${calls[20]}, ${calls[2_000]} and ${calls[20_000]} times for 20, 2,000 and 20,000 rejected near misses ` +
          `(500-member set); the 20,000-element check: ${num(findings)} findings in ${num(ms)} ms (median of 5)`,
        data: { suggestCalls: calls, findings, ms },
      };
    },
  },
  {
    area: 'Repair messages',
    fault:
      'The repair message JSON-encoded every member of a small set before clipping to its bound (issue 11: 20 owner-served members of 800 KB)',
    expected:
      'The message is built only as far as it is shown: members are read until it is full, then it stops.',
    provedBy: [
      test(ENCODES, 'reads only the members it can show of a set of long members'),
      { benchmark: 'hostile-sizes' },
    ],
    async measure() {
      const members = Array.from({ length: 20 }, (_, i) =>
        String.fromCharCode(65 + i).repeat(800_000),
      );
      const r = await rejecting('render', members);
      const message = r.checker.check('render', { code: 'NOPE' }).repairMessage ?? '';
      const reads = r.work.memberReads;
      const ms = medianMs(() => r.checker.check('render', { code: 'NOPE' }));
      r.close();
      return {
        figure: `${reads} of 20 members read for a ${num(message.length)}-character message; one check ${num(ms, 2)} ms (median of 7)`,
        data: { reads, messageLength: message.length, ms },
      };
    },
  },
  {
    area: 'Repair messages',
    fault:
      'A very long value was searched for near misses like a short one (issue 11: 4 MB MCP enum values)',
    expected:
      'Values longer than 1,024 normalised characters are not searched for near misses (classified `invented` unless a case or format variant); shorter ones are.',
    provedBy: [
      test(ENCODES, 'searches values up to the bound, and not past it'),
      test(ENCODES, 'still finds the member a long value stands for by case or format'),
      { benchmark: 'hostile-sizes' },
    ],
    async measure() {
      /** Whether a value of `n` characters one edit from a member is found a near miss. */
      const nearMissAt = async (n: number): Promise<boolean> => {
        const r = await rejecting('t', ['a'.repeat(n), 'b'.repeat(n)]);
        const f = r.checker.check('t', { code: `${'a'.repeat(n - 1)}x` }).findings[0];
        r.close();
        return f?.status === 'checked' && f.shape === 'near_miss';
      };
      // The longest value still searched: a bisection over 64..65,536 characters.
      let lo = 64;
      if (!(await nearMissAt(lo))) throw new Error(`no near miss found at ${lo} characters`);
      let hi = 65_536;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (await nearMissAt(mid)) lo = mid;
        else hi = mid - 1;
      }
      const r = await rejecting('mcp_tool', ['A'.repeat(4_000_000), 'B'.repeat(4_000_000)]);
      const args = { code: `${'A'.repeat(3_999_999)}C` };
      const f = r.checker.check('mcp_tool', args).findings[0];
      const shape = f?.status === 'checked' ? f.shape : f?.status;
      const ms = medianMs(() => r.checker.check('mcp_tool', args));
      r.close();
      return {
        figure: `near misses found up to ${num(lo)} characters, none past; a 4 MB value one edit from a 4 MB member: \`${shape}\` in ${num(ms)} ms (median of 7)`,
        data: { longestSearched: lo, shape, ms },
      };
    },
  },
  {
    area: 'Repair messages',
    fault:
      'Repair messages that were not well-formed text: a surrogate pair cut in half by the clip; line separators, bidi overrides and controls from members and tool names passed raw',
    expected:
      'Controls, separators and bidi characters are escaped; the clip falls on code-point boundaries; the message stays within `maxRepairMessageLength`.',
    provedBy: [
      test(
        `${REGRESSION}/repair-message-not-well-formed.test.ts`,
        'is well-formed, escapes controls, and keeps within its bound, for any text',
      ),
      test(
        `${REGRESSION}/repair-message-not-well-formed.test.ts`,
        'does not cut a surrogate pair in half when it clips',
      ),
    ],
    async measure() {
      const random = seededRandom(707);
      const N = 500;
      let rejected = 0;
      let loneSurrogates = 0;
      let rawControls = 0;
      let overBound = 0;
      for (let i = 0; i < N; i++) {
        const tool = hostileText(random, 30, 1);
        const members = [
          ...new Set(
            Array.from({ length: 1 + Math.floor(random() * 30) }, () => hostileText(random, 40)),
          ),
        ];
        const maxRepairMessageLength = 80 + Math.floor(random() * 521);
        const listAllUpTo = Math.floor(random() * 31);
        const r = await rejecting(tool, members, { maxRepairMessageLength, listAllUpTo });
        const outcome = r.checker.check(tool, { code: hostileText(random, 40) });
        r.close();
        if (outcome.action !== 'reject') continue;
        rejected += 1;
        const message = outcome.repairMessage ?? '';
        if (!isWellFormed(message)) loneSurrogates += 1;
        if (hasRawControl(message)) rawControls += 1;
        if (message.length > maxRepairMessageLength) overBound += 1;
      }
      return {
        figure: `${num(rejected)} messages from generated tool names, members and values: ${loneSurrogates} with a lone surrogate, ${rawControls} with a raw control or separator, ${overBound} over their bound`,
        data: { n: N, rejected, loneSurrogates, rawControls, overBound },
      };
    },
  },
];
