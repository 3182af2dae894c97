// `npm run bench`: runs each benchmark of bench/benchmarks.ts in its own child
// process (with --expose-gc, so nothing one of them allocates or optimises
// leaks into the next), prints their output as it comes, and writes
// docs/benchmarks.md from their results.
//   npm run bench -- [--only large-sets,call-tool] [--no-write] [--out file.md] [-- options]
// Options after the second `--` go to every benchmark run (`--rounds 5`).
// Run `bash scripts/compat-otel3.sh` first to include the OpenTelemetry JS 3.x section.
// With --only, docs/benchmarks.md is not written (it must hold every section);
// --out writes the document elsewhere, whatever ran.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCHMARKS, type BenchmarkEntry } from './benchmarks.js';
import { machine, packageVersion } from './lib/machine.js';
import { table, writeFormatted } from './lib/markdown.js';
import { repoRoot } from './lib/paths.js';
import { num, type Bar, type BenchResult } from './lib/report.js';

const DOC = join(repoRoot, 'docs', 'benchmarks.md');

/** Where scripts/compat-otel3.sh leaves Node 24 and the tree on OpenTelemetry JS 3.x. */
const OTEL3 = {
  root: join(repoRoot, '.cache', 'otel3'),
  node: join(repoRoot, '.cache', 'node24', 'node_modules', 'node', 'bin', 'node'),
};

type Outcome =
  | ({ name: string; command: string } & BenchResult)
  | { name: string; failed: string }
  | { name: string; skipped: string };

const argv = process.argv.slice(2);
const ownArgs = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
const passThrough = argv.includes('--') ? argv.slice(argv.indexOf('--') + 1) : [];
const flag = (name: string): string | undefined => {
  const at = ownArgs.indexOf(`--${name}`);
  return at === -1 ? undefined : ownArgs[at + 1];
};
const only = flag('only')?.split(',');
const outPath = flag('out');
const write = outPath !== undefined || (!ownArgs.includes('--no-write') && only === undefined);

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Versions of the 3.x packages in the copy. */
function otel3Versions(): { node: string; packages: string } {
  const node = execFileSync(OTEL3.node, ['--version'], { encoding: 'utf8' }).trim();
  const names = [
    '@opentelemetry/api',
    '@opentelemetry/sdk-metrics',
    '@opentelemetry/sdk-logs',
    '@opentelemetry/instrumentation',
  ];
  const packages = names.map((n) => `\`${n}\` ${packageVersion(n, `${OTEL3.root}/`)}`);
  return { node, packages: packages.join(', ') };
}

/** A result from the 3.x copy, titled and described as such. */
function onOtel3(result: BenchResult, command: string): BenchResult & { command: string } {
  const { node, packages } = otel3Versions();
  return {
    ...result,
    title: `${result.title}: OpenTelemetry JS 3.x on Node ${node.replace(/^v/, '')}`,
    command: `bash scripts/compat-otel3.sh, then ${command}`,
    method:
      `The same benchmark on the other supported line: ${packages}, in the copy of the tree ` +
      '`scripts/compat-otel3.sh` builds and tests (`.cache/otel3`: the packages as that script ' +
      'last built them, this build of the benchmark), run by its Node 24. ' +
      result.method,
  };
}

function runBench(bench: BenchmarkEntry, dir: string): Promise<Outcome> {
  const out = join(dir, `${bench.name}.json`);
  const otel3 = bench.line === 'otel3';
  const command = `npm run bench -- --only ${bench.name}`;
  if (otel3 && !(existsSync(OTEL3.node) && existsSync(join(OTEL3.root, 'node_modules')))) {
    console.log(`\n=== ${bench.name}: skipped (run \`bash scripts/compat-otel3.sh\` first)`);
    return Promise.resolve({
      name: bench.name,
      skipped: 'needs `bash scripts/compat-otel3.sh` first (Node 24 and OTel JS 3.x in .cache/)',
    });
  }
  // The 3.x copy has its own node_modules: the compiled benchmarks run there
  // resolve the packages (and OpenTelemetry) of the copy.
  const root = otel3 ? `${OTEL3.root}/` : repoRoot;
  if (otel3)
    cpSync(join(repoRoot, 'build', 'bench'), join(root, 'build', 'bench'), { recursive: true });
  const node = otel3 ? OTEL3.node : process.execPath;
  const args = [...(bench.args ?? []), ...passThrough];
  console.log(`\n=== ${bench.name}${otel3 ? ' (Node 24, .cache/otel3)' : ''} ${args.join(' ')}`);
  const entry = join(root, 'build/bench/lib/run-one.js');
  const child = spawn(node, ['--expose-gc', entry, bench.name, '--json', out, ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (code !== 0) {
        resolve({ name: bench.name, failed: `exited with ${signal ?? `code ${code}`}` });
        return;
      }
      try {
        const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
        resolve({
          name: bench.name,
          ...(otel3 ? onOtel3(result, command) : { ...result, command }),
        });
      } catch (error) {
        resolve({ name: bench.name, failed: `wrote no result (${(error as Error).message})` });
      }
    });
  });
}

const started = new Date();
const before = machine();
const dir = mkdtempSync(join(tmpdir(), 'argcheck-bench-'));
const results: Outcome[] = [];
const selected = (BENCHMARKS as readonly BenchmarkEntry[]).filter((b) =>
  only === undefined ? b.onlyWhenNamed !== true : only.includes(b.name),
);
if (only !== undefined && selected.length < only.length) {
  const known = BENCHMARKS.map((b) => b.name).join(', ');
  throw new Error(`--only ${only.join(',')}: the benchmarks are ${known}`);
}
try {
  for (const bench of selected) results.push(await runBench(bench, dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const after = machine();
const minutes = (Date.now() - started.getTime()) / 60_000;

const done = results.filter((r): r is Extract<Outcome, { title: string }> => 'title' in r);
const failedRuns = results.filter((r): r is Extract<Outcome, { failed: string }> => 'failed' in r);
const skippedRuns = results.filter(
  (r): r is Extract<Outcome, { skipped: string }> => 'skipped' in r,
);
const bars: (Bar & { section: string })[] = done.flatMap((r) =>
  r.bars.map((b) => ({ ...b, section: r.title })),
);

// --- the document
const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--', 'packages', 'bench') !== '';
const lines = [
  '# Benchmarks',
  '',
  `<!-- Generated by \`npm run bench\` (bench/run.ts). Do not edit: run it again. -->`,
  '',
  'Benchmarks are programs, not tests: nothing in `npm test` fails when a figure moves. Every ' +
    'figure below comes from one run of `npm run bench`, each benchmark in its own Node ' +
    'process; every baseline was measured in the same process, interleaved round by round with ' +
    'what it is compared to. Figures are medians unless they say otherwise. The machine is ' +
    'shared and noisy (see the load average), so read ratios measured side by side before ' +
    'absolute nanoseconds.',
  '',
  '## Run',
  '',
  table(
    ['', ''],
    [
      ['date', started.toISOString().replace(/\.\d+Z$/, 'Z')],
      ['commit', `${commit}${dirty ? ' (with uncommitted changes in packages/ or bench/)' : ''}`],
      ['duration', `${num(minutes, 1)} min`],
      ['CPU', `${before.cpu}, ${before.cores} cores`],
      ['memory', `${before.memoryGiB} GiB (${before.freeMemoryGiB} GiB free at the start)`],
      ['OS', before.os],
      [
        'load average (1, 5, 15 min)',
        `${before.loadAverage.join(', ')} at the start; ${after.loadAverage.join(', ')} at the end`,
      ],
      ['Node', `${before.node} (V8 ${before.v8}); the OpenTelemetry JS 3.x section says its own`],
      ...Object.entries({ ...before.argcheck, ...before.libraries }).map(([k, v]) => [
        `\`${k}\``,
        v,
      ]),
    ],
  ),
  '',
  '## Bars',
  '',
  'The targets set in issues 3, 6 and 11, and whether this run met them.',
  '',
  table(
    ['bar', 'measured', 'verdict', 'section'],
    bars.map((b) => [b.bar, b.figure, b.holds ? 'holds' : '**fails**', b.section]),
  ),
  '',
];
if (failedRuns.length > 0) {
  const what = failedRuns.map((r) => `\`${r.name}\` ${r.failed}`).join('; ');
  lines.push(`**Incomplete run**: ${what}.`, '');
}
if (skippedRuns.length > 0) {
  const what = skippedRuns.map((r) => `\`${r.name}\` ${r.skipped}`).join('; ');
  lines.push(`**Not run**: ${what}.`, '');
}
for (const r of done) {
  lines.push(`## ${r.title}`, '', `\`${r.command}\``, '', r.method, '');
  for (const t of r.tables) {
    if (t.caption !== undefined) lines.push(`**${t.caption}**`, '');
    lines.push(table(t.head, t.rows), '');
  }
  for (const note of r.notes ?? []) lines.push(note, '');
}

if (write) {
  await writeFormatted(outPath ?? DOC, `${lines.join('\n')}\n`);
  console.log(`\nwrote ${outPath ?? DOC}`);
} else {
  console.log('\n(docs/benchmarks.md not written: --only or --no-write)');
}
console.log('\nBars:');
for (const b of bars) console.log(`  ${b.holds ? 'holds' : 'FAILS'}  ${b.bar}: ${b.figure}`);
if (failedRuns.length > 0) {
  console.error(`\nbenchmarks that did not finish: ${failedRuns.map((r) => r.name).join(', ')}`);
  process.exitCode = 1;
}
