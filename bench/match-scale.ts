// Mismatch classification by kind of emitted value on large catalogue-style
// sets: the compile through the provider, the memory the set retains, and the
// single-shot latency of classify / suggest / has per kind (one, two, three
// typos; four kinds of invented ids). Not a section of docs/benchmarks.md
// (large-sets.ts carries the bars): a sweep for tuning the match index.
//   npm run bench -- --only match-scale [-- --sizes 100000,1000000]
import { createValueSetProvider, staticValueSet, type ValueSet } from '@argcheck/core';
import { catalogueIds, seededRandom, typo, type Random } from './lib/ids.js';
import {
  MiB,
  num,
  requireGc,
  retainedBytes,
  type BenchOptions,
  type BenchResult,
} from './lib/report.js';
import { nowNs, summary } from './lib/stats.js';

const PER_KIND = 5_000;

/** Single-shot latency of `fn` over `inputs`, in µs, and what it answered. */
function time<R>(fn: (v: string) => R, inputs: readonly string[], answer: (r: R) => string) {
  for (const v of inputs.slice(0, 1000)) fn(v); // warm up
  const samples: number[] = [];
  const answers: Record<string, number> = {};
  for (const v of inputs) {
    const t0 = nowNs();
    const r = fn(v);
    samples.push((nowNs() - t0) / 1000);
    const a = answer(r);
    answers[a] = (answers[a] ?? 0) + 1;
  }
  return { ...summary(samples), answers };
}

function workloads(
  ids: readonly string[],
  set: ValueSet,
  random: Random,
): Record<string, string[]> {
  const member = () => ids[Math.floor(random() * ids.length)] ?? '';
  const letters = () =>
    Array.from({ length: 4 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  const some = (make: () => string): string[] => {
    const out: string[] = [];
    while (out.length < PER_KIND) {
      const v = make();
      if (!set.has(v)) out.push(v);
    }
    return out;
  };
  return {
    'near: 1 typo': some(() => typo(member(), random)),
    'near: 2 typos': some(() => typo(typo(member(), random), random)),
    'near: 3 typos': some(() => typo(typo(typo(member(), random), random), random)),
    'invented: WORDS_LIKE_THIS': some(() => `${letters()}_${letters()}`.toUpperCase()),
    'invented: CMP-word-word-N': some(
      () => `CMP-${letters()}-${letters()}-${Math.floor(random() * 1e5)}`,
    ),
    'invented: id, no number': some(() => member().replace(/[0-9]+$/, '')),
    'invented: id, wrong number': some(() =>
      member().replace(/[0-9]+$/, String(Math.floor(random() * 1e9))),
    ),
  };
}

export async function matchScale(options: BenchOptions): Promise<BenchResult> {
  const gc = requireGc();
  const sizes = options.string('sizes', '100000,1000000').split(',').map(Number);
  const rows: (string | number)[][] = [];
  const compiles: (string | number)[][] = [];
  for (const size of sizes) {
    const ids = catalogueIds(size, 7);
    const provider = createValueSetProvider({ sources: { catalog: staticValueSet(ids) } });
    gc();
    const before = retainedBytes();
    const t0 = nowNs();
    await provider.ready();
    const compileMs = (nowNs() - t0) / 1e6;
    gc();
    const retainedMiB = (retainedBytes() - before) / MiB;
    const lookup = provider.get('catalog');
    if (lookup.state === 'unavailable') throw new Error(`the set is ${lookup.reason}`);
    const { set } = lookup;
    compiles.push([num(size), num(compileMs), num(retainedMiB, 1)]);
    console.log(
      `\n${num(size)} members: compiled in ${num(compileMs)} ms, retains ${num(retainedMiB, 1)} MiB`,
    );
    const kinds = workloads(ids, set, seededRandom(11));
    const measured: [string, ReturnType<typeof time>][] = [
      ...Object.entries(kinds).map(
        ([kind, values]) =>
          [
            `classify, ${kind}`,
            time(
              (v) => set.classify(v),
              values,
              (r) => r.shape,
            ),
          ] as [string, ReturnType<typeof time>],
      ),
      [
        'suggest(v, 5), 1 typo',
        time(
          (v) => set.suggest(v, 5),
          kinds['near: 1 typo'] ?? [],
          (r) => `${r.length} suggested`,
        ),
      ],
      ['has, member', time((v) => set.has(v), ids.slice(0, PER_KIND), String)],
    ];
    for (const [name, t] of measured) {
      rows.push([
        num(size),
        name,
        num(t.p50, 1),
        num(t.p99, 1),
        num(t.max, 1),
        JSON.stringify(t.answers),
      ]);
      console.log(
        `  ${name.padEnd(38)} p50 ${num(t.p50, 1)}  p99 ${num(t.p99, 1)}  max ${num(t.max, 1)} µs  ${JSON.stringify(t.answers)}`,
      );
    }
    provider.close();
  }
  return {
    title: 'Mismatch classification by kind of emitted value',
    method:
      `Catalogue-style ids (\`bench/lib/ids.ts\` \`catalogueIds\`), served by a \`staticValueSet\` through the provider; ` +
      `${num(PER_KIND)} values per kind, each timed alone once (after 1,000 of them as warm-up).`,
    tables: [
      {
        caption: 'Compile through the provider',
        head: ['members', 'ms', 'retained MiB'],
        rows: compiles,
      },
      {
        caption: 'Single-shot µs',
        head: ['members', 'operation', 'p50', 'p99', 'max', 'answers'],
        rows,
      },
    ],
    bars: [],
  };
}
