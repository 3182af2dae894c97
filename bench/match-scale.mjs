// Scale benchmark for value-set compilation and mismatch classification.
// Build first (`npx tsc --build`), then:
//   node --expose-gc bench/match-scale.mjs [sizes...]     (default: 100000 1000000)
// Reports compile time, heap retained by the compiled set, and per-call
// latency percentiles of classify / suggest / has on realistic catalogue ids.
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
const QUERIES = 20_000;

function percentiles(samples) {
  const sorted = Float64Array.from(samples).sort();
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

function time(fn, inputs) {
  for (const v of inputs.slice(0, 2000)) fn(v); // warm up
  const samples = [];
  const shapes = {};
  for (const v of inputs) {
    const t0 = process.hrtime.bigint();
    const r = fn(v);
    samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    const shape = r?.shape ?? (Array.isArray(r) ? `${Math.min(r.length, 1)}+ results` : String(r));
    shapes[shape] = (shapes[shape] ?? 0) + 1;
  }
  return { ...percentiles(samples), shapes };
}

function queries(ids, random) {
  const member = () => ids[Math.floor(random() * ids.length)];
  const word = () =>
    Array.from({ length: 4 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join('');
  const near1 = [];
  const near2 = [];
  const invented = [];
  const set = new Set(ids);
  while (near1.length < QUERIES) {
    const v = typo(member(), random);
    if (!set.has(v)) near1.push(v);
  }
  while (near2.length < QUERIES) {
    const v = typo(typo(member(), random), random);
    if (!set.has(v)) near2.push(v);
  }
  while (invented.length < QUERIES) {
    const m = member();
    const kind = invented.length % 4;
    if (kind === 0)
      invented.push(`${word()}_${word()}`.toUpperCase()); // CUSTOMER_UNHAPPY-like
    else if (kind === 1) invented.push(`CMP-${word()}-${word()}-${Math.floor(random() * 1e5)}`);
    else if (kind === 2)
      invented.push(m.replace(/[0-9]+$/, '')); // the part words, no number: common grams only
    else invented.push(m.replace(/[0-9]+$/, String(Math.floor(random() * 1e9))));
  }
  return { near1, near2, invented };
}

function run(size) {
  const ids = realisticIds(size, 7);
  const entries = ids.map((value) => ({ value }));
  compileValueSet(entries.slice(0, 5_000)); // warm up the compiler's code paths
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  let set = compileValueSet(entries);
  const compileMs = Number(process.hrtime.bigint() - t0) / 1e6;
  gc();
  gc();
  const retainedMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;

  const random = seededRandom(11);
  const { near1, near2, invented } = queries(ids, random);
  const members = ids.slice(0, QUERIES);
  const result = {
    size,
    compileMs: Math.round(compileMs),
    retainedMb: Number(retainedMb.toFixed(1)),
    'classify 1 typo (µs)': time((v) => set.classify(v), near1),
    'classify 2 typos (µs)': time((v) => set.classify(v), near2),
    'classify invented (µs)': time((v) => set.classify(v), invented),
    'suggest 1 typo, 5 (µs)': time((v) => set.suggest(v, 5), near1),
    'has member (µs)': time((v) => set.has(v), members),
  };
  set = undefined;
  return result;
}

console.log(`node ${process.version}, ${QUERIES} queries per row, latency per call in µs`);
for (const size of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
  const r = run(size);
  console.log(`\n${r.size} members: compile ${r.compileMs} ms, retained ${r.retainedMb} MB`);
  for (const [name, v] of Object.entries(r)) {
    if (typeof v !== 'object') continue;
    const f = (x) => x.toFixed(2);
    console.log(
      `  ${name.padEnd(26)} p50 ${f(v.p50)}  p99 ${f(v.p99)}  max ${f(v.max)}  ${JSON.stringify(v.shapes)}`,
    );
  }
}
