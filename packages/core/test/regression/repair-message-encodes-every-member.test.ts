// Issue 11, item 4: the repair message JSON-encoded every member of a small
// set before clipping to 1,000 characters (20 owner-served members of 800 KB:
// 55 ms per check), and a very long value was searched for near misses like a
// short one (4 MB MCP enum values: 868 ms). The message now stops as soon as
// it is full, and the near-miss search has a length bound
// (bench/hostile-sizes.ts measures both).
import { expect } from 'chai';
import { createArgumentChecker } from '../../src/checker/create-argument-checker.js';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { NEAR_MISS_MAX_LENGTH } from '../../src/match/thresholds.js';
import { countingSet, providerOf } from '../helpers/counting-set.js';
import { recordFigure } from '@argcheck/testing/figures';

describe('regression: the repair message encoded every member, however long', () => {
  it('reads only the members it can show of a set of long members', () => {
    // 50,000 characters each rather than 800 KB: what is read does not depend
    // on the length, and compiling 16 MB of members would dominate the test.
    const members = Array.from({ length: 20 }, (_, i) => ({
      value: String.fromCharCode(65 + i).repeat(50_000),
    }));
    const { set, usage } = countingSet(compileValueSet(members));
    const checker = createArgumentChecker({
      valueSets: providerOf({ 'docs.templates': set }),
      checkedArguments: { render: { template: 'docs.templates' } },
      mode: 'reject',
    });
    const message = checker.check('render', { template: 'NOPE' }).repairMessage!;
    expect([message.length, usage.memberReads]).to.deep.equal([1_000, 1]);
    recordFigure(
      'repair-encodes-members',
      `${usage.memberReads} of ${members.length} members of 50,000 characters read for a ${message.length.toLocaleString('en-US')}-character message`,
    );
    expect(message).to.match(
      /^render was not called: .* must be one of: "A+… Call the tool again using only the listed values\.$/,
    );
  });
});

describe('regression: a very long value was searched for near misses', () => {
  const long = (c: string, n: number) => c.repeat(n);

  it('searches values up to the bound, and not past it', () => {
    const n = NEAR_MISS_MAX_LENGTH;
    const set = compileValueSet([{ value: long('a', n) }, { value: long('b', n + 1) }]);
    expect([
      set.classify(`${long('a', n - 1)}x`),
      set.suggest(`${long('a', n - 1)}x`, 5),
      set.classify(`${long('b', n)}x`),
      set.suggest(`${long('b', n)}x`, 5),
    ]).to.deep.equal([
      { shape: 'near_miss', canonical: long('a', n) },
      [long('a', n)],
      { shape: 'invented' },
      [],
    ]);
    recordFigure(
      'long-value-near-miss',
      `one edit from a member: \`near_miss\` at ${n.toLocaleString('en-US')} characters, \`invented\` (no suggestion searched) at ${(n + 1).toLocaleString('en-US')}`,
    );
  });

  it('still finds the member a long value stands for by case or format', () => {
    const member = long('Q', 100_000);
    const set = compileValueSet([{ value: member }]);
    expect([set.classify(member.toLowerCase()), set.classify(` ${member} `)]).to.deep.equal([
      { shape: 'case', canonical: member },
      { shape: 'format', canonical: member },
    ]);
  });
});
