// `npm run bench`: runs each benchmark in its own child process (with
// --expose-gc, so nothing one of them allocates or optimises leaks into the
// next), prints their output as it comes, and writes docs/benchmarks.md from
// their results. Build first (`npm run build` does it for `npm run bench`).
//   node bench/run.mjs [--only large-sets,call-tool] [--no-write] [--out file.md] [-- bench args]
// Run `bash scripts/compat-otel3.sh` first to include the OpenTelemetry JS 3.x section.
// With --only, docs/benchmarks.md is not written (it must hold every section);
// --out writes the document elsewhere, whatever ran.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import { machine } from './lib/machine.mjs';
import { table, writeFormatted } from './lib/markdown.mjs';
import { argValue, num } from './lib/report.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOC = join(ROOT, 'docs', 'benchmarks.md');

/** In document order. */
const BENCHES = [
  { name: 'instrumentation-check', file: 'bench/instrumentation-check.mjs' },
  { name: 'call-tool', file: 'bench/call-tool.mjs' },
  // One process per size: the 1,000,000-member stage should not inherit the
  // heap (and the collector's work) of the 100,000-member one, nor it of the other.
  { name: 'large-sets', file: 'bench/large-sets.mjs', args: ['--sizes', '100000'] },
  { name: 'large-sets-1m', file: 'bench/large-sets.mjs', args: ['--sizes', '1000000'] },
  { name: 'flood-memory', file: 'bench/flood-memory.mjs' },
  // The same per-check figures on the other OpenTelemetry JS line, from the
  // copy of the tree that scripts/compat-otel3.sh sets up (Node 24, OTel JS 3.x)
  // — with the bench and packages as they were when that script last ran.
  { name: 'instrumentation-check-otel3', file: 'bench/instrumentation-check.mjs', line: 'otel3' },
];

/** Where scripts/compat-otel3.sh leaves Node 24 and the tree on OpenTelemetry JS 3.x. */
const OTEL3 = {
  root: join(ROOT, '.cache', 'otel3'),
  node: join(ROOT, '.cache', 'node24', 'node_modules', 'node', 'bin', 'node'),
};

/** Versions of the 3.x packages in the copy (3.x packages do not export ./package.json). */
function otel3Versions() {
  const version = (name) =>
    JSON.parse(readFileSync(join(OTEL3.root, 'node_modules', name, 'package.json'), 'utf8'))
      .version;
  const node = execFileSync(OTEL3.node, ['--version'], { encoding: 'utf8' }).trim();
  const names = [
    '@opentelemetry/api',
    '@opentelemetry/sdk-metrics',
    '@opentelemetry/sdk-logs',
    '@opentelemetry/instrumentation',
  ];
  return { node, packages: names.map((n) => `\`${n}\` ${version(n)}`).join(', ') };
}

const only = argValue('only')?.split(',');
const outPath = argValue('out');
const write = outPath !== undefined || (!process.argv.includes('--no-write') && only === undefined);
const passThrough = process.argv.includes('--')
  ? process.argv.slice(process.argv.indexOf('--') + 1)
  : [];

function git(...args) {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function runBench(bench, dir) {
  const out = join(dir, `${bench.name}.json`);
  const otel3 = bench.line === 'otel3';
  if (otel3 && !(existsSync(OTEL3.node) && existsSync(join(OTEL3.root, 'node_modules')))) {
    console.log(`\n=== ${bench.name}: skipped (run \`bash scripts/compat-otel3.sh\` first)`);
    return Promise.resolve({
      name: bench.name,
      skipped: 'needs `bash scripts/compat-otel3.sh` first (Node 24 and OTel JS 3.x in .cache/)',
    });
  }
  const node = otel3 ? OTEL3.node : process.execPath;
  const cwd = otel3 ? OTEL3.root : ROOT;
  console.log(
    `\n=== ${bench.name}: ${otel3 ? 'Node 24, .cache/otel3: ' : ''}node --expose-gc ` +
      [bench.file, ...(bench.args ?? [])].join(' '),
  );
  const child = spawn(
    node,
    ['--expose-gc', join(cwd, bench.file), '--json', out, ...(bench.args ?? []), ...passThrough],
    { cwd, stdio: 'inherit' },
  );
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      if (code !== 0) {
        resolve({ name: bench.name, failed: `exited with ${signal ?? `code ${code}`}` });
        return;
      }
      try {
        const result = JSON.parse(readFileSync(out, 'utf8'));
        resolve({ name: bench.name, ...(otel3 ? onOtel3(result) : result) });
      } catch (error) {
        resolve({ name: bench.name, failed: `wrote no result (${error.message})` });
      }
    });
  });
}

/** A result from the 3.x copy, titled and described as such. */
function onOtel3(result) {
  const { node, packages } = otel3Versions();
  return {
    ...result,
    title: `${result.title}: OpenTelemetry JS 3.x on Node ${node.replace(/^v/, '')}`,
    command: `bash scripts/compat-otel3.sh, then in .cache/otel3 with its Node 24: ${result.command}`,
    method:
      `The same benchmark on the other supported line: ${packages}, in the copy of the tree ` +
      '`scripts/compat-otel3.sh` builds and tests (`.cache/otel3`), run by its Node 24. ' +
      result.method,
  };
}

const started = new Date();
const before = machine();
const dir = mkdtempSync(join(tmpdir(), 'argcheck-bench-'));
const results = [];
try {
  for (const bench of BENCHES.filter((b) => only === undefined || only.includes(b.name))) {
    results.push(await runBench(bench, dir));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const after = machine();
const minutes = (Date.now() - started.getTime()) / 60_000;

const bars = results.flatMap((r) => (r.bars ?? []).map((b) => ({ ...b, section: r.title })));
const failedRuns = results.filter((r) => r.failed);
const skippedRuns = results.filter((r) => r.skipped);

// --- the document
const commit = git('rev-parse', '--short', 'HEAD');
const dirty = git('status', '--porcelain', '--', 'packages', 'bench') !== '';
const lines = [
  '# Benchmarks',
  '',
  `<!-- Generated by \`npm run bench\` (bench/run.mjs). Do not edit: run it again. -->`,
  '',
  'Benchmarks are programs, not tests: nothing in `npm test` fails when a figure moves. Every ' +
    'figure below comes from one run of `npm run bench`, each benchmark file in its own Node ' +
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
  'The targets set in issues 3 and 6, and whether this run met them.',
  '',
  table(
    ['bar', 'measured', 'verdict', 'section'],
    bars.map((b) => [b.bar, b.figure, b.holds ? 'holds' : '**fails**', b.section]),
  ),
  '',
];
if (failedRuns.length > 0) {
  lines.push(
    `**Incomplete run**: ${failedRuns.map((r) => `\`${r.name}\` ${r.failed}`).join('; ')}.`,
    '',
  );
}
if (skippedRuns.length > 0) {
  lines.push(
    `**Not run**: ${skippedRuns.map((r) => `\`${r.name}\` ${r.skipped}`).join('; ')}.`,
    '',
  );
}
for (const r of results.filter((x) => !x.failed && !x.skipped)) {
  lines.push(`## ${r.title}`, '', `\`${r.command}\``, '', r.method, '');
  for (const t of r.tables) {
    if (t.caption) lines.push(`**${t.caption}**`, '');
    lines.push(table(t.head, t.rows), '');
  }
  for (const note of r.notes ?? []) lines.push(note, '');
}

const text = `${lines.join('\n')}\n`;
if (write) {
  await writeFormatted(outPath ?? DOC, text);
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
