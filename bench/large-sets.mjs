// Large value sets: a refresh of 100,000 and 1,000,000 realistic ids through
// the real provider and httpValueSet from an owner in another process (time,
// retained memory, event-loop stall), compileValueSet alone, the cost of an
// in-set check beside the six-member case, and mismatch classification and
// suggestions (single-shot median and p99).
// Build first (`npm run build`), then:
//   node --expose-gc bench/large-sets.mjs [--sizes 100000,1000000]
import { Buffer } from 'node:buffer';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL } from 'node:url';
import {
  createArgumentChecker,
  createValueSetProvider,
  httpValueSet,
  staticValueSet,
} from '@argcheck/core';
// Internal entry points, for the stage-by-stage breakdown of a refresh.
import {
  compileValueSet,
  compileValueSetAsync,
} from '../packages/core/build/src/match/compile-value-set.js';
import { parseValueSetPayload } from '../packages/core/build/src/sources/parse-payload.js';
import { inventedValue, realisticIds, seededRandom, typo } from './lib/ids.mjs';
import { startOwnerProcess } from './lib/owner.mjs';
import { argValue, MiB, num, publish, requireGc, retainedBytes } from './lib/report.mjs';
import { median, nowNs, rotated, summary } from './lib/stats.mjs';

const gc = requireGc();
const SIZES = (argValue('sizes') ?? '100000,1000000').split(',').map(Number);
const SEED = 7;
const PER_KIND = 5_000;
const PASSES = 3;
// A 1,000,000-id payload is about 20 MB: over the 16 MiB httpValueSet default.
const MAX_BYTES = 64 * MiB;
const BARS = { refreshMs: 1_000, retainedMiB: 64, classifyP99Us: 50, stallMs: 50, inSetRatio: 1.1 };

const GC_KINDS = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };

/**
 * Run `fn` with an event-loop delay monitor (1 ms resolution): its longest
 * stall in ms, and the longest garbage-collection pause while it ran (V8's
 * own pause, from `gc` performance entries), with its kind.
 */
async function monitored(fn) {
  const pauses = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(20);
  const start = performance.now();
  const t0 = nowNs();
  const value = await fn();
  const ms = (nowNs() - t0) / 1e6;
  const end = performance.now();
  await sleep(20); // the delay that ended with `fn` is recorded on the next tick
  histogram.disable();
  observer.disconnect();
  const during = pauses.filter((e) => e.startTime >= start && e.startTime <= end);
  const longest = during.reduce(
    (a, e) => (a === undefined || e.duration > a.duration ? e : a),
    undefined,
  );
  return {
    value,
    ms,
    stallMs: histogram.max / 1e6,
    gcMs: longest?.duration ?? 0,
    gcKind: longest === undefined ? 'none' : (GC_KINDS[longest.detail?.kind] ?? 'other'),
  };
}

/** Retained bytes (heap + typed arrays) after gc, in MiB. */
function retainedMiB() {
  gc();
  return retainedBytes() / MiB;
}

/** The provider path: httpValueSet → parse → judge → compile, as a user's refresh runs. */
async function providerRefreshes(url, count) {
  const events = [];
  const provider = createValueSetProvider({
    sources: { catalog: httpValueSet(url, { maxBytes: MAX_BYTES }) },
    fetchTimeoutMs: 60_000,
    onEvent: (event) => events.push(event),
  });
  const base = retainedMiB();
  const runs = [];
  for (let i = 0; i < count; i++) {
    const run = await monitored(() => provider.refresh('catalog'));
    runs.push({
      ms: run.ms,
      stallMs: run.stallMs,
      gcMs: run.gcMs,
      gcKind: run.gcKind,
      retainedMiB: retainedMiB() - base,
    });
  }
  const failed = events.filter((e) => e.type !== 'fetch_succeeded');
  if (failed.length > 0) throw new Error(`a refresh failed: ${JSON.stringify(failed[0])}`);
  return { provider, runs };
}

/**
 * The compiler apart from the provider, on the same payload: the sliced
 * compile the provider runs (`compileValueSetAsync`, under the stall monitor),
 * the one-call `compileValueSet`, and one `JSON.parse` of the whole body (what
 * the source would stall for if it did not parse the body piece by piece).
 */
async function stages(url, reps) {
  const out = {
    jsonParseMs: [],
    asyncMs: [],
    asyncStallMs: [],
    asyncGc: [],
    asyncRetainedMiB: [],
    syncMs: [],
  };
  const text = await (await globalThis.fetch(url)).text();
  for (let r = 0; r < reps; r++) {
    let t = nowNs();
    const body = JSON.parse(text);
    out.jsonParseMs.push((nowNs() - t) / 1e6);
    const entries = parseValueSetPayload(body);
    const base = retainedMiB();
    const held = [];
    const run = await monitored(async () => held.push(await compileValueSetAsync(entries)));
    out.asyncMs.push(run.ms);
    out.asyncStallMs.push(run.stallMs);
    out.asyncGc.push({ gcMs: run.gcMs, gcKind: run.gcKind });
    out.asyncRetainedMiB.push(retainedMiB() - base);
    if (held[0].size !== body.length) throw new Error('compileValueSetAsync lost members');
    held.length = 0; // let the next step start from the same baseline
    retainedMiB();
    t = nowNs();
    held.push(compileValueSet(entries));
    out.syncMs.push((nowNs() - t) / 1e6);
    held.length = 0;
  }
  return out;
}

/** Median ns per in-set check for the six-member set and the large one, interleaved. */
function inSetChecks(provider, ids, six, rounds) {
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: {
      pick_part: { component_id: 'six' },
      create_ticket: { component_id: 'catalog' },
      reorder_part: { component_id: 'catalog_same_traffic' },
    },
  });
  const random = seededRandom(3);
  const LEN = 65_536;
  const hot = Array.from({ length: 1_000 }, () => ids[Math.floor(random() * ids.length)]);
  // Every pattern walks an array of the same length, so the arguments' own
  // memory traffic is alike and only the set lookups differ.
  // Fresh copies: emitted values arrive as new strings, never as the very
  // string objects the set holds, so every lookup compares contents.
  const copy = (s) => Buffer.from(s).toString();
  const patterns = [
    {
      key: 'six',
      tool: 'pick_part',
      args: Array.from({ length: LEN }, (_, i) => ({ component_id: copy(six[i % six.length]) })),
    },
    {
      // The same traffic as `six` (six values, over and over) on the large
      // set: what the size of the set alone does to a check. A copy of the
      // large set of its own, which sees only this traffic: a large set keeps
      // the members it found last as strings, and the other patterns would
      // leave theirs there.
      key: 'sixLarge',
      tool: 'reorder_part',
      args: Array.from({ length: LEN }, (_, i) => ({
        component_id: copy(six[i % six.length]),
      })),
    },
    {
      key: 'uniform',
      tool: 'create_ticket',
      args: Array.from({ length: LEN }, () => ({
        component_id: copy(ids[Math.floor(random() * ids.length)]),
      })),
    },
    {
      key: 'hot',
      tool: 'create_ticket',
      args: Array.from({ length: LEN }, () => ({
        component_id: copy(hot[Math.floor(random() * hot.length)]),
      })),
    },
  ];
  const BATCH = 10_000;
  const run = (p, n, offset) => {
    let inSet = 0;
    for (let i = 0; i < n; i++) {
      const f = checker.check(p.tool, p.args[(offset + i) & (LEN - 1)]).findings[0];
      if (f.inSet) inSet++;
    }
    return inSet;
  };
  // The baseline: a bare Set of the same strings, probed in the same patterns.
  const sets = { six: new Set(six.map(copy)), large: new Set(ids.map(copy)) };
  // (`sixLarge` probes the large set.)
  const values = (p) => p.args.map((a) => a.component_id);
  const bare = patterns.map((p) => ({
    key: `set_${p.key}`,
    set: p.key === 'six' ? sets.six : sets.large,
    values: values(p),
  }));
  const has = (b, n, offset) => {
    let inSet = 0;
    for (let i = 0; i < n; i++) if (b.set.has(b.values[(offset + i) & (LEN - 1)])) inSet++;
    return inSet;
  };
  const variants = [
    ...patterns.map((p) => ({ key: p.key, run: (n, o) => run(p, n, o) })),
    ...bare.map((b) => ({ key: b.key, run: (n, o) => has(b, n, o) })),
  ];
  for (const v of variants) v.run(LEN * 2, 0); // warm up; hashes of the strings are cached
  const perCheck = Object.fromEntries(variants.map((v) => [v.key, []]));
  let offset = 0;
  for (let round = 0; round < rounds; round++) {
    for (const v of rotated(variants, round)) {
      const t0 = nowNs();
      const inSet = v.run(BATCH, offset);
      perCheck[v.key].push((nowNs() - t0) / BATCH);
      if (inSet !== BATCH) throw new Error(`${v.key}: ${BATCH - inSet} checks were not in set`);
    }
    offset += BATCH;
  }
  const medians = Object.fromEntries(Object.entries(perCheck).map(([k, v]) => [k, median(v)]));
  // The two six-value patterns ran side by side in every round: the median of
  // their per-round ratios is steadier than the ratio of their medians.
  const sameTrafficRatio = median(perCheck.sixLarge.map((ns, r) => ns / perCheck.six[r]));
  return { ...medians, sameTrafficRatio };
}

/**
 * Mismatch workloads: typos of members, and invented values. Each kind has
 * a warm-up half and a measured half, drawn alike and never the same value.
 */
function workloads(set, ids) {
  const random = seededRandom(11);
  const member = () => ids[Math.floor(random() * ids.length)];
  const some = (make) => {
    const seen = new Set();
    const out = [];
    while (out.length < 2 * PER_KIND) {
      const v = make();
      if (!set.has(v) && !seen.has(v)) {
        seen.add(v);
        out.push(v);
      }
    }
    return { warmUp: out.slice(0, PER_KIND), measured: out.slice(PER_KIND) };
  };
  return {
    'near: 1 typo': some(() => typo(member(), random)),
    'near: 2 typos': some(() => typo(typo(member(), random), random)),
    invented: some(() => inventedValue(random)),
  };
}

/**
 * Single-shot latency in µs of `fn` on each measured value, and the answers
 * it gave. The warm-up values run first, so the code is optimised as in a
 * long-running process. The measured values then run in PASSES passes, each
 * value timed alone once per pass (passes, not repeats, so no value finds the
 * index warm from its own previous run, nor its classification among the
 * set's last 64). A value's latency is the median of
 * its passes: one pass on a shared machine catches interrupts and other
 * processes' time slices, which land on a different value each pass. The
 * first pass alone is reported too.
 */
function latencies(fn, { warmUp, measured }, answer) {
  for (const v of warmUp) fn(v);
  const passes = Array.from({ length: PASSES }, () => new Float64Array(measured.length));
  const answers = {};
  for (let p = 0; p < PASSES; p++) {
    for (let i = 0; i < measured.length; i++) {
      const t0 = nowNs();
      const r = fn(measured[i]);
      passes[p][i] = (nowNs() - t0) / 1000;
      if (p === 0) {
        const a = answer(r);
        answers[a] = (answers[a] ?? 0) + 1;
      }
    }
  }
  const perValue = measured.map((_, i) => median(passes.map((times) => times[i])));
  return { ...summary(perValue), firstPass: summary([...passes[0]]), answers };
}

async function measure(size) {
  console.log(`\n${num(size)} members`);
  const owner = await startOwnerProcess(size, SEED);
  try {
    // The provider first, while this process holds nothing else large: what
    // follows keeps a million strings of its own (the ids it queries with),
    // whose garbage collection would be charged to the refresh.
    // Node loads and compiles its fetch implementation on first use (a 20-35
    // ms turn of its own, once per process): done before measuring (a 404).
    await (await globalThis.fetch(new URL('/warm-up', owner.url))).arrayBuffer();
    const refreshCount = size >= 1_000_000 ? 3 : 5;
    const { provider: big, runs } = await providerRefreshes(owner.url, refreshCount);
    for (const [i, r] of runs.entries()) {
      console.log(
        `  provider refresh ${i + 1}: ${num(r.ms)} ms, longest event-loop stall ${num(r.stallMs)} ms ` +
          `(longest GC pause ${num(r.gcMs)} ms, ${r.gcKind}), retained ${num(r.retainedMiB, 1)} MiB`,
      );
    }
    big.close(); // what follows reads sets compiled alike, from one provider

    const ids = realisticIds(size, SEED);
    const stageReps = size >= 1_000_000 ? 1 : 5;
    const stage = await stages(owner.url, stageReps);
    console.log(
      `  compileValueSetAsync ${num(median(stage.asyncMs))} ms (stall ${num(Math.max(...stage.asyncStallMs))} ms, ` +
        `retains ${num(median(stage.asyncRetainedMiB), 1)} MiB); compileValueSet ${num(median(stage.syncMs))} ms; ` +
        `JSON.parse of the body ${num(median(stage.jsonParseMs))} ms`,
    );

    // The six-member case: six of the large set's ids, so both sets hold the
    // very same strings and only the size of the set differs. One provider
    // serves both, as a user's would, so both lookups take the same path.
    const sixRandom = seededRandom(5);
    const six = Array.from({ length: 6 }, () => ids[Math.floor(sixRandom() * ids.length)]);
    const provider = createValueSetProvider({
      sources: {
        catalog: staticValueSet(ids),
        catalog_same_traffic: staticValueSet(ids),
        six: staticValueSet(six),
      },
    });
    await provider.ready();
    const inSet = inSetChecks(provider, ids, six, size >= 1_000_000 ? 30 : 100);
    console.log(
      `  in-set check ns: six ${num(inSet.six, 1)}, the same traffic on the large set ` +
        `(per-round ratio ${num(inSet.sameTrafficRatio, 2)}) ` +
        `${num(inSet.sixLarge, 1)}, uniform ${num(inSet.uniform, 1)}, hot 1,000 ${num(inSet.hot, 1)}; ` +
        `bare Set.has: six ${num(inSet.set_six, 1)}, same traffic ${num(inSet.set_sixLarge, 1)}, ` +
        `uniform ${num(inSet.set_uniform, 1)}, hot ${num(inSet.set_hot, 1)}`,
    );

    const set = provider.get('catalog').set;
    const kinds = workloads(set, ids);
    const reject = createArgumentChecker({
      valueSets: provider,
      checkedArguments: { create_ticket: { component_id: 'catalog' } },
      mode: 'reject',
    });
    const rows = [];
    for (const [kind, values] of Object.entries(kinds)) {
      const classify = latencies(
        (v) => set.classify(v),
        values,
        (r) => r.shape,
      );
      const suggest = latencies(
        (v) => set.suggest(v, 5),
        values,
        (r) => (r.length > 0 ? 'some' : 'none'),
      );
      const check = latencies(
        (v) => reject.check('create_ticket', { component_id: v }),
        values,
        (r) => r.action,
      );
      rows.push({ kind, classify, suggest, check });
      console.log(
        `  ${kind.padEnd(14)} classify p50 ${num(classify.p50, 1)} p99 ${num(classify.p99, 1)} µs ` +
          `(first pass p99 ${num(classify.firstPass.p99, 1)}) ` +
          `${JSON.stringify(classify.answers)}; suggest(5) p50 ${num(suggest.p50, 1)} p99 ${num(suggest.p99, 1)}; ` +
          `reject-mode check p50 ${num(check.p50, 1)} p99 ${num(check.p99, 1)}`,
      );
    }
    provider.close();
    return { size, bytes: owner.bytes, stage, runs, inSet, rows };
  } finally {
    await owner.close();
  }
}

const results = [];
for (const size of SIZES) results.push(await measure(size));

// --- the report
const share = (answers, key) => {
  const total = Object.values(answers).reduce((a, b) => a + b, 0);
  return `${num((100 * (answers[key] ?? 0)) / total, 0)} %`;
};
/** The longest GC pause over `runs`, with its kind. */
const longestGc = (runs) => {
  const worst = runs.reduce((a, r) => (r.gcMs > a.gcMs ? r : a), runs[0]);
  return `${num(worst.gcMs)} (${worst.gcKind})`;
};
const stageRow = (label, ms, stall, retained, gc) => [
  '',
  label,
  num(median(ms)),
  num(Math.max(...ms)),
  stall === undefined ? '—' : num(Math.max(...stall)),
  gc === undefined ? '—' : longestGc(gc),
  retained === undefined ? '—' : num(median(retained), 1),
  String(ms.length),
];
const refreshRows = results.flatMap((r) => [
  [
    `${num(r.size)} (${num(r.bytes / MiB, 1)} MiB JSON)`,
    'provider refresh: `httpValueSet` (body parsed as it arrives) → judge → compile in slices',
    num(median(r.runs.map((x) => x.ms))),
    num(Math.max(...r.runs.map((x) => x.ms))),
    num(Math.max(...r.runs.map((x) => x.stallMs))),
    longestGc(r.runs),
    num(median(r.runs.map((x) => x.retainedMiB)), 1),
    String(r.runs.length),
  ],
  stageRow(
    "the provider's compiler alone, in slices, from entry objects the caller holds " +
      '(`compileValueSetAsync`)',
    r.stage.asyncMs,
    r.stage.asyncStallMs,
    r.stage.asyncRetainedMiB,
    r.stage.asyncGc,
  ),
  stageRow('`compileValueSet` alone (one synchronous call)', r.stage.syncMs, r.stage.syncMs),
  stageRow(
    'for scale: one `JSON.parse` of the whole body (synchronous)',
    r.stage.jsonParseMs,
    r.stage.jsonParseMs,
  ),
]);
const inSetRow = (label, m, prefix) => {
  const six = m[`${prefix}six`];
  const cell = (key) => [num(m[`${prefix}${key}`], 1), `${num(m[`${prefix}${key}`] / six, 2)}×`];
  return [label, num(six, 1), ...cell('sixLarge'), ...cell('hot'), ...cell('uniform')];
};
const checkRows = results.flatMap((r) => [
  [num(r.size), ...inSetRow('`check()`', r.inSet, '')],
  ['', ...inSetRow('bare `Set.has`, same strings', r.inSet, 'set_')],
]);
const mismatchRows = results.flatMap((r) =>
  r.rows.map((row) => [
    num(r.size),
    row.kind,
    `${num(row.classify.p50, 1)} / ${num(row.classify.p99, 1)}`,
    `${num(row.classify.firstPass.p50, 1)} / ${num(row.classify.firstPass.p99, 1)}`,
    row.kind === 'invented'
      ? `${share(row.classify.answers, 'invented')} invented`
      : `${share(row.classify.answers, 'near_miss')} near_miss`,
    `${num(row.suggest.p50, 1)} / ${num(row.suggest.p99, 1)}`,
    `${num(row.check.p50, 1)} / ${num(row.check.p99, 1)}`,
  ]),
);

const r100 = results.find((r) => r.size === 100_000);
const bars = [];
if (r100) {
  const refreshMs = median(r100.runs.map((x) => x.ms));
  const retained = median(r100.runs.map((x) => x.retainedMiB));
  const classifyP99 = Math.max(...r100.rows.map((row) => row.classify.p99));
  const ratio = r100.inSet.sameTrafficRatio;
  bars.push(
    {
      bar: `100,000-member refresh through the provider under ${num(BARS.refreshMs)} ms (median of ${r100.runs.length})`,
      figure: `${num(refreshMs)} ms (slowest ${num(Math.max(...r100.runs.map((x) => x.ms)))} ms)`,
      holds: refreshMs < BARS.refreshMs,
    },
    {
      bar: `100,000-member set retains under ${BARS.retainedMiB} MiB`,
      figure: `${num(retained, 1)} MiB (heap + typed arrays, after gc)`,
      holds: retained < BARS.retainedMiB,
    },
    {
      bar: `mismatch classification on 100,000 members: p99 under ${BARS.classifyP99Us} µs`,
      figure: r100.rows.map((row) => `${row.kind} ${num(row.classify.p99, 1)} µs`).join(', '),
      holds: classifyP99 < BARS.classifyP99Us,
    },
    {
      bar:
        'in-set check on 100,000 members unchanged from six members (within 10 %), the same ' +
        'traffic (six values) on both; see docs/decisions/0003-in-set-bar.md',
      figure:
        `${num(r100.inSet.sixLarge, 1)} ns vs ${num(r100.inSet.six, 1)} ns (median of per-round ` +
        `ratios ${num(ratio, 2)}×); ` +
        `values spread over all 100,000: ${num(r100.inSet.uniform, 1)} ns, where a bare Set.has ` +
        `goes ${num(r100.inSet.set_six, 1)} → ${num(r100.inSet.set_uniform, 1)} ns`,
      holds: ratio <= BARS.inSetRatio,
    },
  );
}
for (const r of results) {
  const stall = Math.max(...r.runs.map((x) => x.stallMs));
  bars.push({
    bar: `a ${num(r.size)}-member refresh stalls the event loop ≤ ${BARS.stallMs} ms`,
    figure:
      `${num(stall)} ms longest stall over ${r.runs.length} refreshes, the longest GC pause ` +
      `meanwhile ${longestGc(r.runs)} ms`,
    holds: stall <= BARS.stallMs,
  });
}

const notes = [];
for (const r of results) {
  notes.push(
    `${num(r.size)} members: compiled in one call, the set would hold the event loop for ` +
      `${num(median(r.stage.syncMs))} ms, and one \`JSON.parse\` of the ${num(r.bytes / MiB, 1)} MiB ` +
      `body for ${num(median(r.stage.jsonParseMs))} ms; the provider does both in slices, and the ` +
      `longest stall seen during its refreshes was ${num(Math.max(...r.runs.map((x) => x.stallMs)))} ms.`,
  );
}
if (r100) {
  const extraCheck = r100.inSet.uniform - r100.inSet.six;
  const extraHas = r100.inSet.set_uniform - r100.inSet.set_six;
  notes.push(
    'A check does the same steps whatever the size of the set: with the same traffic (six ' +
      `values over and over) it takes ${num(r100.inSet.sixLarge, 1)} ns on 100,000 members and ` +
      `${num(r100.inSet.six, 1)} ns on six. Traffic spread over the whole set pays for memory ` +
      `instead: a bare \`Set.has\` over the same 100,000 strings, probed the same way, is ` +
      `${num(extraHas)} ns slower than over six, of the ${num(extraCheck)} ns a check is slower; ` +
      'with the set spread over megabytes the lookup misses the caches, and evicts what the rest ' +
      'of the check touches. Traffic that keeps to popular members (the hot column) pays less: ' +
      `${num(r100.inSet.hot - r100.inSet.six)} ns.`,
  );
}

publish({
  title: `Large value sets: ${SIZES.map((n) => num(n)).join(' and ')} members`,
  command: `node --expose-gc bench/large-sets.mjs --sizes ${SIZES.join(',')}`,
  method:
    'Members are realistic ids from five families (catalogue components `CMP-Brake-Caliper-00417`, ' +
    'SKUs `SKU_4431_XL_BLK`, handles `amira.okafor42`, bins `AMS1-B07-s035`, services ' +
    '`payments-ledger-api-v2`): mixed case, separators, digits (`bench/lib/ids.mjs`, seeded). ' +
    'The owner is a loopback HTTP server in its own process serving the JSON array. ' +
    '**Refresh**: `provider.refresh()` of a real `createValueSetProvider` with ' +
    '`httpValueSet(url, { maxBytes: 64 MiB })` (a million ids is about 20 MB, over the 16 MiB ' +
    'default), timed end to end, under `perf_hooks.monitorEventLoopDelay` (1 ms resolution); ' +
    'the first refresh fills a cold set, later ones replace it (fetch is warmed up first: Node ' +
    'loads its implementation on first use, a one-time stall of 20-35 ms that any fetch pays). ' +
    'The refreshes run first, while ' +
    'the process holds nothing else large (the rest of the bench keeps a million ids of its ' +
    'own, whose garbage collection would be charged to them). Retained memory is heap plus ' +
    'typed arrays after `gc()`, against the empty provider. The rows under it run the ' +
    'compiler alone on the same payload (imported from the build): in slices from entry ' +
    'objects the caller holds, and in one call; and, for scale, one `JSON.parse` of the whole ' +
    'body. The provider never compiles from entry objects: it reads a source into packed ' +
    'arrays as the body arrives, so the parsed strings die young; a million entry objects ' +
    'held through the compile (and the million ids this process holds by then) are what the ' +
    'collector pauses of that row are made of. **In-set check**: ' +
    '`check()` of the core checker over one provider serving both sets (`staticValueSet`), ' +
    'arguments cycling through 65,536 prepared objects per pattern (each value a fresh copy of ' +
    'the string, as a parsed call brings), median ns over batches of 10,000 in interleaved ' +
    'rounds (100 at 100,000 members). The six-member set holds six of the ' +
    "large set's ids, so the two sets hold the very same strings; a copy of the large set that " +
    'serves nothing else is probed with those six values (the same traffic: only the size of ' +
    'the set differs; the bar reads the ' +
    'median of the two patterns’ per-round ratios), with 1,000 popular ' +
    'members, and with values spread evenly over all of it. Beside it, a bare `Set.has` over ' +
    'the same strings in the same patterns, which shows what memory latency alone costs. ' +
    `**Mismatches**: ${num(PER_KIND)} values per kind that are not members — one or two random ` +
    'edits of a member, or invented ids — each timed alone: `set.classify(v)`, ' +
    '`set.suggest(v, 5)`, and a `reject`-mode `check()` (classification, suggestions and the ' +
    `repair message). ${num(PER_KIND)} other values of the same kind run first, so the code is ` +
    `optimised as in a long-running process; then the measured values run in ${PASSES} passes, ` +
    "each value timed once per pass, and a value's latency is the median of its passes (an " +
    "interrupt or another process's time slice lands on one pass of one value, not on all " +
    'three); p99 is over values. A set keeps the classifications of its last 64 mismatches, ' +
    'and a value comes back only after the other 4,999, so every pass classifies it anew. ' +
    'The first pass alone is shown for `classify`. Each size runs ' +
    'in its own process.',
  tables: [
    {
      caption:
        'Refresh (ms; stall is the longest event-loop delay seen, GC the longest garbage-collection ' +
        'pause V8 reported meanwhile; retained MiB after gc)',
      head: [
        'members',
        'step',
        'median ms',
        'slowest ms',
        'stall ms',
        'longest GC pause ms',
        'retained MiB',
        'runs',
      ],
      rows: refreshRows,
    },
    {
      caption: 'In-set `check()`, median ns per check',
      head: [
        'members',
        'operation',
        'six-member set',
        'large set, six of its members',
        'ratio',
        'large set, 1,000 hot members',
        'ratio',
        'large set, values spread over all members',
        'ratio',
      ],
      rows: checkRows,
    },
    {
      caption:
        'Mismatches, single-shot µs (median / p99 over values, each value the median of ' +
        `its ${PASSES} passes; the first pass alone beside \`classify\`)`,
      head: [
        'members',
        'emitted value',
        '`classify`',
        '`classify`, first pass alone',
        'classified as',
        '`suggest(v, 5)`',
        '`check()`, reject mode',
      ],
      rows: mismatchRows,
    },
  ],
  bars,
  notes,
  raw: results.map(({ size, bytes, stage, runs, inSet, rows }) => ({
    size,
    bytes,
    stage,
    runs,
    inSet,
    rows,
  })),
});
