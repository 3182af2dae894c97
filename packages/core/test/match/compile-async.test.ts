import { expect } from 'chai';
import fc from 'fast-check';
import {
  compileValueSet,
  compileValueSetAsync,
  type CompileOptions,
} from '../../src/match/compile-value-set.js';
import type { ValueSet, ValueSetEntry } from '../../src/types.js';
import { anyString, idLike, variantOf } from './arbitraries.js';
import { realisticIds, seededRandom, typo } from './realistic-ids.js';

type Call = [readonly string[], string];

function recorder(): { calls: Call[]; options: Required<CompileOptions> } {
  const calls: Call[] = [];
  return { calls, options: { onCollision: (members, key) => calls.push([[...members], key]) } };
}

/** Everything a caller can see of a set, on these queries. */
function observe(set: ValueSet, queries: readonly string[]) {
  return {
    size: set.size,
    members: set.members(),
    frozen: Object.isFrozen(set) && Object.isFrozen(set.members()),
    answers: queries.map((q) => [q, set.has(q), set.classify(q), set.suggest(q, 4)]),
  };
}

async function both(entries: readonly ValueSetEntry[], queries: string[], yieldEvery?: number) {
  const sync = recorder();
  const async = recorder();
  const expected = observe(compileValueSet(entries, sync.options), queries);
  const actual = observe(
    await compileValueSetAsync(entries, { ...async.options, yieldEvery }),
    queries,
  );
  return { actual, expected, syncCalls: sync.calls, asyncCalls: async.calls };
}

// Repeated values (their aliases merge), aliases, members that collide.
const member = fc.oneof(
  idLike,
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', '-', '_', '1'), maxLength: 22 }),
);
const entries: fc.Arbitrary<ValueSetEntry[]> = fc.array(
  fc
    .tuple(member, fc.option(fc.array(member, { maxLength: 2 }), { nil: undefined }))
    .map(([value, aliases]) => (aliases ? { value, aliases } : { value })),
  { maxLength: 40 },
);

describe('compileValueSetAsync', () => {
  it('builds the same set as compileValueSet, with the same collisions, in any slice size', async () => {
    await fc.assert(
      fc.asyncProperty(
        entries.chain((list) =>
          fc.tuple(
            fc.constant(list),
            fc.array(
              list.length === 0
                ? anyString
                : fc.oneof(
                    anyString,
                    fc.constantFrom(...list.map((e) => e.value)).chain(variantOf),
                  ),
              { maxLength: 12 },
            ),
            fc.integer({ min: 1, max: 40 }),
          ),
        ),
        async ([list, queries, yieldEvery]) => {
          const r = await both(list, queries, yieldEvery);
          expect(r.actual).to.deep.equal(r.expected);
          expect(r.asyncCalls).to.deep.equal(r.syncCalls);
        },
      ),
      { numRuns: 400 },
    );
  });

  describe('on 20,000 catalogue ids (many slices)', function () {
    this.timeout(30_000);
    const ids = realisticIds(20_000, 5);
    const random = seededRandom(23);
    const pick = () => ids[Math.floor(random() * ids.length)]!;
    // A few members that collide, and aliases, so collisions are reported too.
    const list: ValueSetEntry[] = [
      ...ids.map((value) => ({ value })),
      { value: ids[0]!.toLowerCase().replace(/[-_.]/g, ' ') },
      { value: ids[1]!, aliases: ['The first part', 'Shared alias'] },
      { value: ids[2]!, aliases: ['Shared alias', ids[3]!.toUpperCase()] },
      { value: ids[1]! },
    ];
    const queries = [
      ...Array.from({ length: 60 }, () => typo(pick(), random)),
      ...Array.from({ length: 60 }, () => typo(typo(pick(), random), random)),
      ...Array.from({ length: 30 }, () => typo(typo(typo(pick(), random), random), random)),
      ...Array.from({ length: 30 }, () => pick().replace(/[0-9]+$/, '')),
      ...Array.from({ length: 30 }, () => pick().toLowerCase()),
      ...Array.from({ length: 30 }, () => pick().toLowerCase().replace(/[-_.]/g, ' ')),
      ...Array.from({ length: 30 }, pick),
      'shared alias',
      'the first part',
      ids[0]!,
      '',
    ];

    it('builds the same set and reports the same collisions', async () => {
      const r = await both(list, queries);
      expect(r.actual).to.deep.equal(r.expected);
      expect(r.asyncCalls).to.deep.equal(r.syncCalls);
      expect(r.syncCalls).to.have.length.greaterThan(1);
      // The sample exercises every shape.
      const shapes = new Set(r.expected.answers.map((a) => (a[2] as { shape: string }).shape));
      expect([...shapes].sort()).to.deep.equal([
        'alias',
        'case',
        'format',
        'invented',
        'near_miss',
      ]);
    });

    it('gives the event loop turns while it compiles', async () => {
      let turns = 0;
      let compiled = false;
      const compiling = compileValueSetAsync(list).then((set) => {
        compiled = true;
        return set;
      });
      while (!compiled) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns++;
      }
      expect((await compiling).size).to.equal(20_001);
      expect(turns).to.be.greaterThan(10);
    });

    it('is abandoned when its signal aborts: it rejects with the reason and stops calling back', async () => {
      const controller = new AbortController();
      const calls: Call[] = [];
      const compiling = compileValueSetAsync(list, {
        signal: controller.signal,
        onCollision: (members, key) => calls.push([members, key]),
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
      const reason = new Error('closed');
      controller.abort(reason);
      expect(await compiling.catch((e: unknown) => e)).to.equal(reason);
      for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      expect(calls).to.deep.equal([]);
    });
  });

  it('compiles a small set before it returns: an abort right after comes too late', async () => {
    const controller = new AbortController();
    const compiling = compileValueSetAsync(
      ['LATE', 'DAMAGED', 'OTHER'].map((value) => ({ value })),
      { signal: controller.signal },
    );
    controller.abort(new Error('too late'));
    expect((await compiling).members()).to.deep.equal(['DAMAGED', 'LATE', 'OTHER']);
  });

  it('rejects a yieldEvery below 1', async () => {
    const error = await compileValueSetAsync([{ value: 'LATE' }], { yieldEvery: 0 }).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(RangeError);
  });
});
