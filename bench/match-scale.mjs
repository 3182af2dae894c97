// Scale benchmark for value-set compilation and mismatch classification.
// Build first (`npx tsc --build`), then:
//   node --expose-gc bench/match-scale.mjs [sizes...]     (default: 100000 1000000)
// Reports compile time, heap retained by the compiled set, and per-call
// latency percentiles of classify / suggest / has on catalogue-style ids
// (packages/core/test/match/realistic-ids.ts), by kind of emitted value.
import { compileValueSet } from '../packages/core/build/src/match/compile-value-set.js';
import {
  realisticIds,
  seededRandom,
  typo,
} from '../packages/core/build/test/match/realistic-ids.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(1);
}
const gc = globalThis.gc;
const sizes = process.argv.slice(2).map(Number);
const PER_KIND = 5_000;

function percentiles(samples) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

/** Single-shot latency of `fn` over `inputs`, in µs, and what it answered. */
function time(fn, inputs) {
  for (const v of inputs.slice(0, 1000)) fn(v); // warm up
  const samples = [];
  const answers = {};
  for (const v of inputs) {
    const t0 = process.hrtime.bigint();
    const r = fn(v);
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    const answer = r?.shape ?? (Array.isArray(r) ? `${r.length} suggested` : String(r));
    answers[answer] = (answers[answer] ?? 0) + 1;
  }
  return { ...percentiles(samples), answers };
}

function workloads(ids, random) {
  const set = new Set(ids);
  const member = () => ids[Math.floor(random() * ids.length)];
  const letters = () =>
    Array.from({ length: 4 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  const some = (make) => {
    const out = [];
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

function run(size) {
  const ids = realisticIds(size, 7);
  const entries = ids.map((value) => ({ value }));
  compileValueSet(entries.slice(0, 5_000)); // warm up the compiler's code paths
  gc();
  gc();
  // Typed arrays live outside the JavaScript heap: count both.
  const before = process.memoryUsage();
  const t0 = process.hrtime.bigint();
  const set = compileValueSet(entries);
  const compileMs = Number(process.hrtime.bigint() - t0) / 1e6;
  gc();
  gc();
  const after = process.memoryUsage();
  const mb = (bytes) => bytes / 2 ** 20;
  const heapMb = mb(after.heapUsed - before.heapUsed);
  const buffersMb = mb(after.arrayBuffers - before.arrayBuffers);

  const kinds = workloads(ids, seededRandom(11));
  const rows = {};
  for (const [name, values] of Object.entries(kinds))
    rows[`classify ${name}`] = time((v) => set.classify(v), values);
  const near = Object.entries(kinds).filter(
    ([k]) => k.startsWith('near: 1') || k.startsWith('near: 2'),
  );
  const invented = Object.entries(kinds).filter(([k]) => k.startsWith('invented'));
  rows['classify near (1-2 typos)'] = time(
    (v) => set.classify(v),
    near.flatMap(([, v]) => v),
  );
  rows['classify invented (all 4)'] = time(
    (v) => set.classify(v),
    invented.flatMap(([, v]) => v),
  );
  rows['suggest 5, 1 typo'] = time((v) => set.suggest(v, 5), kinds['near: 1 typo']);
  rows['has, member'] = time((v) => set.has(v), ids.slice(0, PER_KIND));
  return { size, compileMs, heapMb, buffersMb, rows, keep: set };
}

console.log(
  `node ${process.version}; latency per call in µs, single shot, ${PER_KIND} values per kind`,
);
for (const size of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
  const r = run(size);
  console.log(
    `\n${r.size} members: compile ${Math.round(r.compileMs)} ms, retained ${(r.heapMb + r.buffersMb).toFixed(1)} MB ` +
      `(heapUsed ${r.heapMb.toFixed(1)} MB + typed arrays ${r.buffersMb.toFixed(1)} MB)`,
  );
  for (const [name, v] of Object.entries(r.rows)) {
    const f = (x) => x.toFixed(1).padStart(7);
    console.log(
      `  ${name.padEnd(38)} p50 ${f(v.p50)}  p99 ${f(v.p99)}  max ${f(v.max)}  ${JSON.stringify(v.answers)}`,
    );
  }
}
