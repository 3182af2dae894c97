// The argcheck command line (issue 11, item 6): `argcheck report` on hostile
// input, the bin on a fresh clone, `argcheck demo --seed`. The real `argcheck`
// bin in child processes, and @argcheck/cli's readReport.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argcheckBin, cliPackage, runArgcheck, runNode } from '../lib/argcheck-bin.js';
import { repoRoot } from '../lib/paths.js';
import { num } from '../lib/report.js';
import { test, type FaultRow } from './table.js';

const REGRESSION = 'packages/cli/test/regression';
const RETAIN = `${REGRESSION}/report-keys-retain-input.test.ts`;
const RETAINED = fileURLToPath(new URL('../lib/report-retained.js', import.meta.url));

interface Retained {
  retainedBytes: number;
  series: number;
  records: number;
  keptLength: number;
}

/** What the report of 100 lines, each a distinct 200 KB `field`, retains (a child with --expose-gc). */
function retained(field: 'value' | 'tool' | 'shape') {
  const child = spawnSync(process.execPath, ['--expose-gc', RETAINED, field, '100'], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`report-retained ${field}: ${child.stderr}`);
  const r = JSON.parse(child.stdout) as Retained;
  return {
    figure: `100 lines of distinct 200 KB ${field === 'value' ? 'values' : `${field} names`}: the report retains ${num(r.retainedBytes / 1e6, 2)} MB (the input is 20 MB); ${r.series} series, ${r.records} records, kept copies of at most ${r.keptLength} characters`,
    data: r,
  };
}

/** A temporary file of `lines` lines; removed with its directory by `done()`. */
async function tempLines(name: string, lines: number, line: (i: number) => string) {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-reliability-'));
  const path = join(dir, name);
  const out = createWriteStream(path);
  for (let i = 0; i < lines; i++) if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return { path, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const invented = (fields: Record<string, string>): string =>
  JSON.stringify({
    tool: 'refund_order',
    argument: 'reason_code',
    set: 'refunds.reason_codes',
    in_set: 'false',
    in_set_normalised: 'false',
    shape: 'invented',
    ...fields,
  });

interface ReportJson {
  input: { lines: number; corruptLines: number };
  arguments: { records: number; distinctValues: number; valuesOverCap: number }[];
}

export const cli: FaultRow[] = [
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck report` kept each distinct value as a slice of its input line, so every kept value held its whole line in memory',
    expected:
      'Kept values are copies cut to 256 characters: what the report holds does not grow with the length of the lines.',
    provedBy: [
      test(RETAIN, 'keeps 100 distinct 200 KB values as cut copies, not slices of the input'),
      { benchmark: 'report-memory' },
    ],
    measure: () => Promise.resolve(retained('value')),
  },
  {
    area: 'argcheck CLI',
    fault: '`argcheck report` kept long tool names whole',
    expected:
      'Tool, argument and set names are cut to 256 characters and copied: one series each, a few hundred bytes.',
    provedBy: [
      test(RETAIN, 'keeps 100 distinct 200 KB tool names as cut copies, not the whole names'),
      { benchmark: 'report-memory' },
    ],
    measure: () => Promise.resolve(retained('tool')),
  },
  {
    area: 'argcheck CLI',
    fault: '`argcheck report` kept any number of shape names, of any length',
    expected:
      'At most 16 shape names per series, each cut to 64 characters and copied; the rest are counted as `other`.',
    provedBy: [
      test(RETAIN, 'keeps 100 distinct 200 KB shape names as cut copies, not the whole names'),
    ],
    measure: () => Promise.resolve(retained('shape')),
  },
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck report` allowed 10,000 distinct values in each of 1,000 series: 10 million kept values',
    expected:
      'At most 100,000 distinct values are kept across all series; values past the cap are counted as `other`.',
    provedBy: [
      test(
        `${REGRESSION}/report-values-in-all-series.test.ts`,
        'keeps at most 100,000 distinct values across all series and counts the rest as other',
      ),
      { benchmark: 'report-memory' },
    ],
    async measure() {
      // 1,000 series × 101 distinct values.
      const file = await tempLines('series.jsonl', 101_000, (i) =>
        invented({
          tool: `tool_${i % 1_000}`,
          value: `INVENTED_${i % 1_000}_${Math.floor(i / 1_000)}`,
        }),
      );
      try {
        const run = await runArgcheck(['report', '--format', 'json', file.path]);
        if (run.status !== 0) throw new Error(`argcheck report: ${run.stderr}`);
        const report = JSON.parse(run.stdout) as ReportJson;
        const total = (k: 'distinctValues' | 'valuesOverCap' | 'records') =>
          report.arguments.reduce((n, a) => n + a[k], 0);
        return {
          figure: `1,000 series × 101 distinct values: ${num(total('distinctValues'))} kept, ${num(total('valuesOverCap'))} counted \`other\`, ${num(total('records'))} records counted; peak RSS ${num(run.peakMB)} MB`,
          data: {
            series: report.arguments.length,
            kept: total('distinctValues'),
            other: total('valuesOverCap'),
            peakMB: run.peakMB,
          },
        };
      } finally {
        file.done();
      }
    },
  },
  {
    area: 'argcheck CLI',
    fault:
      '`argcheck report` parsed a line of any nesting depth (issue 11: one 60 MB line of brackets took 3.1 GB)',
    expected:
      'A line nested deeper than 64 levels is refused before it is parsed, named by its line number; the lines around it are counted.',
    provedBy: [
      test(
        `${REGRESSION}/report-deep-nesting.test.ts`,
        'refuses lines nested deeper than 64 levels by line number and counts the other lines',
      ),
      { benchmark: 'report-memory' },
    ],
    async measure() {
      const levels = 3_000_000;
      const file = await tempLines('nested.jsonl', 3, (i) =>
        i === 1 ? `${'['.repeat(levels)}${']'.repeat(levels)}` : invented({ value: 'X' }),
      );
      const empty = await runNode(['-e', '']);
      try {
        const run = await runArgcheck(['report', '--format', 'json', file.path]);
        if (run.status !== 0) throw new Error(`argcheck report: ${run.stderr}`);
        const report = JSON.parse(run.stdout) as ReportJson;
        const records = report.arguments.reduce((n, a) => n + a.records, 0);
        const said = run.stderr.trim().replace(file.path, '<file>');
        return {
          figure: `a 6 MB line nested ${num(levels)} deep between two records: “${said}”; ${records} of 2 records counted; peak RSS ${num(run.peakMB)} MB (an empty Node process: ${num(empty.peakMB)} MB)`,
          data: { corruptLines: report.input.corruptLines, records, peakMB: run.peakMB },
        };
      } finally {
        file.done();
      }
    },
  },
  {
    area: 'argcheck CLI',
    fault:
      '`npx argcheck` failed on a fresh clone: the bin pointed into build/, which `npm ci` links before anything is built',
    expected:
      'The bin is a committed source file outside build/, so `npm ci` links it; it runs the built command, and before a build it says to build first (exit 1).',
    provedBy: [
      test(
        `${REGRESSION}/bin-before-build.test.ts`,
        'is a file of the package sources, outside build/, and published',
      ),
      test(
        `${REGRESSION}/bin-before-build.test.ts`,
        'says to build first when the build is missing, exit 1',
      ),
    ],
    async measure() {
      const { dir, manifest } = cliPackage();
      const bin = argcheckBin();
      const path = relative(dir, bin);
      const tracked =
        spawnSync('git', ['ls-files', '--error-unmatch', relative(repoRoot, realpathSync(bin))], {
          cwd: repoRoot,
        }).status === 0;
      const link = join(repoRoot, 'node_modules/.bin/argcheck');
      const linked = existsSync(link) && realpathSync(link) === realpathSync(bin);
      const help = await runNode([link, '--help']);
      // The same file in a package without build/.
      const bare = mkdtempSync(join(tmpdir(), 'argcheck-unbuilt-'));
      try {
        mkdirSync(join(bare, 'bin'));
        copyFileSync(bin, join(bare, 'bin/argcheck.js'));
        writeFileSync(join(bare, 'package.json'), '{ "type": "module" }');
        const unbuilt = await runNode([join(bare, 'bin/argcheck.js'), 'demo']);
        return {
          figure:
            `bin \`${path}\`: ${path.startsWith('build') ? 'in' : 'outside'} build/, ${tracked ? 'committed' : '**not committed**'}, ` +
            `${manifest.files.includes(path) ? 'published' : '**not published**'}; node_modules/.bin/argcheck ${linked ? 'links to it' : '**does not link to it**'}; ` +
            `\`argcheck --help\` exit ${help.status}; unbuilt: exit ${unbuilt.status}, “${unbuilt.stderr.trim()}”`,
          data: { path, tracked, linked, help: help.status, unbuilt: unbuilt.status },
        };
      } finally {
        rmSync(bare, { recursive: true, force: true });
      }
    },
  },
  {
    area: 'argcheck CLI',
    fault: 'Two `argcheck demo` runs with the same `--seed` sampled different log records',
    expected:
      'The same seed writes the same log records and counts the same checks, whatever the timing of the machine.',
    provedBy: [
      test(
        `${REGRESSION}/demo-seed-sampling.test.ts`,
        'observe mode: the same seed writes the same records and counts the same checks',
      ),
      test(
        `${REGRESSION}/demo-seed-sampling.test.ts`,
        'reject mode: the same seed writes the same records and counts the same checks',
      ),
      test(
        'packages/core/test/regression/draws-in-load-completion-order.test.ts',
        'gives each set the same next refresh whichever of their loads ends first',
      ),
    ],
    async measure() {
      const dir = mkdtempSync(join(tmpdir(), 'argcheck-seed-'));
      try {
        // Side by side, so the two runs meet different timing on the same machine.
        const runs = await Promise.all(
          ['a', 'b'].map(async (name) => {
            const logs = join(dir, `${name}.jsonl`);
            const args = ['demo', '--duration', '3', '--seed', '5', '--json', '--logs', logs];
            const run = await runArgcheck(args, {
              ...process.env,
              OTEL_EXPORTER_OTLP_ENDPOINT: '',
            });
            if (run.status !== 0) throw new Error(`argcheck demo: ${run.stderr}`);
            const figures = JSON.parse(run.stdout) as {
              arguments: unknown;
              durationMs: { actual: number };
            };
            return {
              lines: readFileSync(logs, 'utf8'),
              counted: JSON.stringify(figures.arguments),
              ms: figures.durationMs.actual,
            };
          }),
        );
        const [a, b] = runs as [(typeof runs)[0], (typeof runs)[0]];
        const records = a.lines.split('\n').filter((l) => l !== '').length;
        return {
          figure: `two observe-mode runs side by side, \`--duration 3 --seed 5\` (${num(a.ms)} and ${num(b.ms)} ms): log files ${a.lines === b.lines ? 'identical' : '**different**'} (${records} records), counts ${a.counted === b.counted ? 'identical' : '**different**'}`,
          data: { records, sameLogs: a.lines === b.lines, sameCounts: a.counted === b.counted },
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
