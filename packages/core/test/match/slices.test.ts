import { expect } from 'chai';
import fc from 'fast-check';
import { Budget, inSlices, runInTurns, runWhole, type Slices } from '../../src/match/slices.js';
import { PackedStrings } from '../../src/match/packed-strings.js';
import { sortedOrder } from '../../src/match/sort-in-slices.js';

/** Visits [0, count) in slices of `size` units at `weight` each, recording each range. */
function* ranges(count: number, weight: number, budget: Budget, seen: [number, number][]) {
  yield* inSlices(budget, count, weight, (from, to) => void seen.push([from, to]));
  return seen.length;
}

/** How many turns `work` took: pauses counted by driving it by hand. */
function pauses<T>(work: Slices<T>): { value: T; pauses: number } {
  let count = 0;
  for (;;) {
    const step = work.next();
    if (step.done) return { value: step.value, pauses: count };
    count++;
  }
}

describe('slices', () => {
  it('covers the range in order, pausing only when a slice is spent and work remains', () => {
    const seen: [number, number][] = [];
    const { pauses: n } = pauses(ranges(10, 1, new Budget(4), seen));
    expect(seen).to.deep.equal([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
    expect(n).to.equal(2);
  });

  it('never pauses for work that fits in one slice, nor after the last range', () => {
    expect(pauses(ranges(8, 0.5, new Budget(4), [])).pauses).to.equal(0);
    expect(pauses(ranges(4, 1, new Budget(4), [])).pauses).to.equal(0);
    expect(pauses(ranges(0, 1, new Budget(4), [])).pauses).to.equal(0);
  });

  it('shares one budget between consecutive loops', () => {
    const budget = new Budget(4);
    const seen: [number, number][] = [];
    function* two(): Slices<void> {
      yield* ranges(3, 1, budget, seen);
      yield* ranges(3, 1, budget, seen);
    }
    expect(pauses(two()).pauses).to.equal(1);
    expect(seen).to.deep.equal([
      [0, 3],
      [0, 1],
      [1, 3],
    ]);
  });

  it('takes at least one item per range, however heavy', () => {
    const seen: [number, number][] = [];
    pauses(ranges(3, 100, new Budget(4), seen));
    expect(seen).to.deep.equal([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });

  it('runWhole and runInTurns give the same result', async () => {
    expect(runWhole(ranges(100, 1, new Budget(7), []))).to.equal(15);
    expect(await runInTurns(ranges(100, 1, new Budget(7), []))).to.equal(15);
  });

  it('runInTurns runs the first slice before it returns, the rest on later turns', async () => {
    const seen: [number, number][] = [];
    const done = runInTurns(ranges(10, 1, new Budget(4), seen));
    expect(seen).to.deep.equal([[0, 4]]);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(seen).to.have.length(2);
    expect(await done).to.equal(3);
  });

  it('runInTurns rejects with what the work throws', async () => {
    function* failing(): Slices<number> {
      yield;
      throw new Error('broken');
    }
    const error = await runInTurns(failing()).catch((e: unknown) => e);
    expect((error as Error).message).to.equal('broken');
  });

  it('runInTurns stops at an abort, leaves nothing queued, and rejects with the reason', async () => {
    const controller = new AbortController();
    const seen: [number, number][] = [];
    const done = runInTurns(ranges(100, 1, new Budget(4), seen), controller.signal);
    const reason = new Error('closed');
    controller.abort(reason);
    expect(await done.catch((e: unknown) => e)).to.equal(reason);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(seen).to.deep.equal([[0, 4]]);
  });

  it('runInTurns stops when the work itself aborts the signal mid-slice', async () => {
    const controller = new AbortController();
    const seen: [number, number][] = [];
    const reason = new Error('closed');
    const work = inSlices(new Budget(4), 100, 1, (from, to) => {
      seen.push([from, to]);
      if (from === 4) controller.abort(reason);
    });
    expect(await runInTurns(work, controller.signal).catch((e: unknown) => e)).to.equal(reason);
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(seen).to.deep.equal([
      [0, 4],
      [4, 8],
    ]);
  });

  it('runInTurns rejects at once when the signal has already aborted', async () => {
    const seen: [number, number][] = [];
    const reason = new Error('closed');
    const work = runInTurns(ranges(10, 1, new Budget(4), seen), AbortSignal.abort(reason));
    expect(await work.catch((e: unknown) => e)).to.equal(reason);
    expect(seen).to.deep.equal([]);
  });
});

describe('sortedOrder', () => {
  const strings = fc.array(
    fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.string({ unit: fc.constantFrom('a', 'B', '\uD83D', '\uDE00', '\u00E9', '\uFF41') }),
    ),
    { maxLength: 200 },
  );

  it('orders strings in code-unit order, repeats by position, in any slice size', () => {
    fc.assert(
      fc.property(strings, fc.integer({ min: 1, max: 64 }), (list, size) => {
        // Positions in code-unit order of their strings (`<` on strings), ties by position.
        const expected = list
          .map((_, i) => i)
          .sort((a, b) => (list[a]! < list[b]! ? -1 : list[a]! > list[b]! ? 1 : a - b));
        const { value } = pauses(sortedOrder(PackedStrings.of(list), new Budget(size)));
        expect([...value]).to.deep.equal(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('sorts in one native pass, without pausing, when there is no budget', () => {
    const { value, pauses: n } = pauses(
      sortedOrder(PackedStrings.of(['b', 'a', 'c', 'a']), new Budget(Infinity)),
    );
    expect([...value]).to.deep.equal([1, 3, 0, 2]);
    expect(n).to.equal(0);
  });
});
