// Issue 11, item 4: in `reject` mode suggestions were computed for every
// rejected element of an array argument although the repair message shows a
// few: 2,000 near misses against a 100,000-member set held the event loop for
// 2.5-2.9 s, 10,000 for 9.9 s. Suggestions are now computed only for the
// rejected arguments the message describes (bench/hostile-sizes.ts measures it).
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import type { Finding } from '../../src/types.js';
import { countingSet, providerOf } from '../helpers/counting-set.js';
import { recordFigure } from '@argcheck/testing/figures';

const BINS = Array.from({ length: 500 }, (_, i) => `BIN-${String(i).padStart(5, '0')}`);

function rejectArray(count: number) {
  const { set, usage } = countingSet(compileValueSet(BINS.map((value) => ({ value }))));
  const checker = createArgumentChecker({
    valueSets: providerOf({ 'wms.bins': set }),
    checkedArguments: { transfer_stock: { 'items[].bin': 'wms.bins' } },
    mode: 'reject',
  });
  // Near misses: one substitution from a member each.
  const items = Array.from({ length: count }, (_, i) => ({
    bin: `BIN-${String(i % 500).padStart(5, '0')}`.replace(/.$/, 'X'),
  }));
  return { outcome: checker.check('transfer_stock', { items }), usage };
}

const suggested = (f: Finding) => f.status === 'checked' && f.suggestions !== undefined;

describe('regression: reject suggested for every rejected element of an array', () => {
  it('computes suggestions only for the arguments the repair message describes', () => {
    const { outcome, usage } = rejectArray(2_000);
    const described = outcome.repairMessage!.match(/"items\[\d+\]\.bin" must be/g) ?? [];
    expect(described.length).to.be.within(1, 10);
    // The line that no longer fits may have asked for its suggestions first.
    expect(usage.suggestCalls).to.be.within(described.length, described.length + 1);
    expect({
      action: outcome.action,
      findings: outcome.findings.length,
      withSuggestions: outcome.findings.filter(suggested).length,
      firstDescribed: outcome.findings.slice(0, described.length).every(suggested),
      notShown: outcome.repairMessage!.includes(
        `(${2_000 - described.length} more arguments not shown.)`,
      ),
    }).to.deep.equal({
      action: 'reject',
      findings: 2_000,
      withSuggestions: described.length,
      firstDescribed: true,
      notShown: true,
    });
  });

  it('does the same suggestion work for 20,000 elements as for 20', () => {
    const runs = [20, 2_000, 20_000].map((n) => rejectArray(n));
    const calls = runs.map((r) => r.usage.suggestCalls);
    expect(calls[2]).to.equal(calls[0]);
    recordFigure(
      'suggestions-per-element',
      `suggest() ran ${calls.join(', ')} times for 20, 2,000 and 20,000 rejected near misses (500-member set); ${runs
        .map((r) => r.outcome.findings.length.toLocaleString('en-US'))
        .join(', ')} findings, each element classified`,
    );
  });
});
