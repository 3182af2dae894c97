// Large value sets: a refresh of 100,000 and 1,000,000 realistic ids through
// the real provider and httpValueSet from an owner in another process (time,
// retained memory, event-loop stall), the provider's compile alone from
// entries the process holds, the cost of an in-set check beside the
// six-member case, and mismatch classification and suggestions (single-shot
// median and p99).
//   npm run bench -- --only large-sets [-- --sizes 100000,1000000]
import { URL } from 'node:url';
import {
  createArgumentChecker,
  createValueSetProvider,
  httpValueSet,
  staticValueSet,
  type ValueSetSource,
} from '@argcheck/core';
import { realisticIds, seededRandom } from './lib/ids.js';
import { inSetChecks, type InSetFigures } from './lib/in-set-checks.js';
import { mismatchLatencies, workloads, type Latencies } from './lib/mismatch-latencies.js';
import { monitored } from './lib/monitored.js';
import { startOwnerProcess } from './lib/owner.js';
import {
  MiB,
  num,
  requireGc,
  retainedBytes,
  type Bar,
  type BenchOptions,
  type BenchResult,
} from './lib/report.js';
import { median } from './lib/stats.js';

const SEED = 7;
const PER_KIND = 5_000;
const PASSES = 3;
// A 1,000,000-id payload is about 20 MB: over the 16 MiB httpValueSet default.
const MAX_BYTES = 64 * MiB;
const BARS = { refreshMs: 1_000, retainedMiB: 64, classifyP99Us: 50, stallMs: 50, inSetRatio: 1.1 };

interface Run {
  ms: number;
  stallMs: number;
  gcMs: number;
  gcKind: string;
  retainedMiB: number;
}

interface SizeResult {
  size: number;
  bytes: number;
  runs: Run[];
  staticRuns: Run[];
  jsonParseMs: number[];
  inSet: InSetFigures;
  rows: { kind: string; classify: Latencies; suggest: Latencies; check: Latencies }[];
}

export async function largeSets(options: BenchOptions): Promise<BenchResult> {
  const gc = requireGc();
  const SIZES = options.string('sizes', '100000,1000000').split(',').map(Number);

  /** Retained bytes (heap + typed arrays) after gc, in MiB. */
  const retainedMiB = (): number => {
    gc();
    return retainedBytes() / MiB;
  };

  /**
   * Refreshes of real providers over `source`: `providers` providers, each
   * refreshed `each` times, every refresh timed and monitored. A new provider
   * fills an empty set; a provider refreshed again replaces the set it serves.
   */
  async function refreshes(
    source: () => ValueSetSource,
    providers: number,
    each: number,
    members?: number,
  ): Promise<Run[]> {
    const runs: Run[] = [];
    for (let p = 0; p < providers; p++) {
      const failures: string[] = [];
      const provider = createValueSetProvider({
        sources: { catalog: source() },
        fetchTimeoutMs: 60_000,
        onEvent: (event) => {
          if (event.type !== 'fetch_succeeded') failures.push(JSON.stringify(event));
        },
      });
      const base = retainedMiB();
      for (let r = 0; r < each; r++) {
        const run = await monitored(() => provider.refresh('catalog'));
        runs.push({ ...run, retainedMiB: retainedMiB() - base });
      }
      const lookup = provider.get('catalog');
      const size = lookup.state === 'unavailable' ? 0 : lookup.set.size;
      provider.close();
      if (failures.length > 0) throw new Error(`a refresh failed: ${failures[0]}`);
      if (members !== undefined && size !== members) {
        throw new Error(`the provider served ${size} of ${members} members`);
      }
    }
    return runs;
  }

  async function measure(size: number): Promise<SizeResult> {
    console.log(`\n${num(size)} members`);
    const owner = await startOwnerProcess(size, SEED);
    try {
      // The provider first, while this process holds nothing else large: what
      // follows keeps a million strings of its own (the ids it queries with),
      // whose garbage collection would be charged to the refresh.
      // Node loads and compiles its fetch implementation on first use (a 20-35
      // ms turn of its own, once per process): done before measuring (a 404).
      await (await globalThis.fetch(new URL('/warm-up', owner.url))).arrayBuffer();
      const http = () => httpValueSet(owner.url, { maxBytes: MAX_BYTES });
      const runs = await refreshes(http, 1, size >= 1_000_000 ? 3 : 5);
      for (const [i, r] of runs.entries()) {
        console.log(
          `  provider refresh ${i + 1}: ${num(r.ms)} ms, longest event-loop stall ${num(r.stallMs)} ms ` +
            `(longest GC pause ${num(r.gcMs)} ms, ${r.gcKind}), retained ${num(r.retainedMiB, 1)} MiB`,
        );
      }

      // The compile alone: the same members as entries this process already
      // holds (a `staticValueSet`), each run a provider filling an empty set.
      const text = await (await globalThis.fetch(owner.url)).text();
      const reps = size >= 1_000_000 ? 1 : 5;
      const jsonParseMs: number[] = [];
      let body: string[] = [];
      for (let r = 0; r < reps; r++) {
        const t0 = performance.now();
        body = JSON.parse(text) as string[];
        jsonParseMs.push(performance.now() - t0);
      }
      const entries = staticValueSet(body);
      const staticRuns = await refreshes(() => entries, reps, 1, body.length);
      body = [];
      console.log(
        `  staticValueSet through the provider ${num(median(staticRuns.map((r) => r.ms)))} ms ` +
          `(stall ${num(Math.max(...staticRuns.map((r) => r.stallMs)))} ms, retains ` +
          `${num(median(staticRuns.map((r) => r.retainedMiB)), 1)} MiB); ` +
          `JSON.parse of the body ${num(median(jsonParseMs))} ms`,
      );

      const ids = realisticIds(size, SEED);
      // The six-member case: six of the large set's ids, so both sets hold the
      // very same strings and only the size of the set differs. One provider
      // serves both, as a user's would, so both lookups take the same path.
      const sixRandom = seededRandom(5);
      const six = Array.from({ length: 6 }, () => ids[Math.floor(sixRandom() * ids.length)] ?? '');
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

      const lookup = provider.get('catalog');
      if (lookup.state === 'unavailable') throw new Error('the catalog set is not served');
      const { set } = lookup;
      const reject = createArgumentChecker({
        valueSets: provider,
        checkedArguments: { create_ticket: { component_id: 'catalog' } },
        mode: 'reject',
      });
      const rows: SizeResult['rows'] = [];
      for (const [kind, values] of Object.entries(workloads(set, ids, PER_KIND))) {
        const classify = mismatchLatencies(
          (v) => set.classify(v),
          values,
          PASSES,
          (r) => r.shape,
        );
        const suggest = mismatchLatencies(
          (v) => set.suggest(v, 5),
          values,
          PASSES,
          (r) => (r.length > 0 ? 'some' : 'none'),
        );
        const check = mismatchLatencies(
          (v) => reject.check('create_ticket', { component_id: v }),
          values,
          PASSES,
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
      return { size, bytes: owner.bytes, runs, staticRuns, jsonParseMs, inSet, rows };
    } finally {
      await owner.close();
    }
  }

  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await measure(size));
  return report(SIZES, results);
}

// --- the report

const share = (answers: Record<string, number>, key: string): string => {
  const total = Object.values(answers).reduce((a, b) => a + b, 0);
  return `${num((100 * (answers[key] ?? 0)) / total, 0)} %`;
};

/** The longest GC pause over `runs`, with its kind. */
const longestGc = (runs: readonly Run[]): string => {
  const worst = runs.reduce<Run | undefined>(
    (a, r) => (a === undefined || r.gcMs > a.gcMs ? r : a),
    undefined,
  );
  return worst === undefined ? '—' : `${num(worst.gcMs)} (${worst.gcKind})`;
};

const runRow = (members: string, step: string, runs: readonly Run[]): string[] => [
  members,
  step,
  num(median(runs.map((x) => x.ms))),
  num(Math.max(...runs.map((x) => x.ms))),
  num(Math.max(...runs.map((x) => x.stallMs))),
  longestGc(runs),
  num(median(runs.map((x) => x.retainedMiB)), 1),
  String(runs.length),
];

function report(SIZES: readonly number[], results: readonly SizeResult[]): BenchResult {
  const refreshRows = results.flatMap((r) => [
    runRow(
      `${num(r.size)} (${num(r.bytes / MiB, 1)} MiB JSON)`,
      'provider refresh: `httpValueSet` (body parsed as it arrives) → judge → compile in slices',
      r.runs,
    ),
    runRow(
      '',
      "the provider's compile alone, in slices, from entry objects the process holds " +
        '(`staticValueSet`, an empty set filled)',
      r.staticRuns,
    ),
    [
      '',
      'for scale: one `JSON.parse` of the whole body (synchronous)',
      num(median(r.jsonParseMs)),
      num(Math.max(...r.jsonParseMs)),
      num(Math.max(...r.jsonParseMs)),
      '—',
      '—',
      String(r.jsonParseMs.length),
    ],
  ]);
  const inSetRow = (label: string, m: InSetFigures, prefix: '' | 'set_'): string[] => {
    const at = (key: string): number => m[`${prefix}${key}` as keyof InSetFigures];
    const six = at('six');
    const cell = (key: string) => [num(at(key), 1), `${num(at(key) / six, 2)}×`];
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
  const bars: Bar[] = [];
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

  const notes = results.map(
    (r) =>
      `${num(r.size)} members: one \`JSON.parse\` of the ${num(r.bytes / MiB, 1)} MiB body holds ` +
      `the event loop for ${num(median(r.jsonParseMs))} ms, and the compile from entries the ` +
      `process holds takes ${num(median(r.staticRuns.map((x) => x.ms)))} ms in all; the provider ` +
      'parses the body as it arrives and compiles in slices, and the longest stall seen during ' +
      `its refreshes was ${num(Math.max(...r.runs.map((x) => x.stallMs)))} ms.`,
  );
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

  return {
    title: `Large value sets: ${SIZES.map((n) => num(n)).join(' and ')} members`,
    method:
      'Members are realistic ids from five families (catalogue components `CMP-Brake-Caliper-00417`, ' +
      'SKUs `SKU_4431_XL_BLK`, handles `amira.okafor42`, bins `AMS1-B07-s035`, services ' +
      '`payments-ledger-api-v2`): mixed case, separators, digits (`bench/lib/ids.ts`, seeded). ' +
      'The owner is a loopback HTTP server in its own process serving the JSON array. ' +
      '**Refresh**: `provider.refresh()` of a real `createValueSetProvider` with ' +
      '`httpValueSet(url, { maxBytes: 64 MiB })` (a million ids is about 20 MB, over the 16 MiB ' +
      'default), timed end to end, under `perf_hooks.monitorEventLoopDelay` (1 ms resolution); ' +
      'the first refresh fills a cold set, later ones replace it (fetch is warmed up first: Node ' +
      'loads its implementation on first use, a one-time stall of 20-35 ms that any fetch pays). ' +
      'The refreshes run first, while ' +
      'the process holds nothing else large (the rest of the bench keeps a million ids of its ' +
      'own, whose garbage collection would be charged to them). Retained memory is heap plus ' +
      'typed arrays after `gc()`, against the empty provider. The row under it is the ' +
      "provider's compile alone: a `staticValueSet` of the same members, parsed beforehand, so " +
      'the provider compiles from entry objects the process holds (a new provider per run, ' +
      'filling an empty set); and, for scale, one `JSON.parse` of the whole body. A refresh ' +
      'from an owner never compiles from entry objects: the source reads the body into packed ' +
      'arrays as it arrives, so the parsed strings die young; a million entry objects held ' +
      'through the compile are what the collector pauses of that row are made of. ' +
      '**In-set check**: ' +
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
    raw: results,
  };
}
