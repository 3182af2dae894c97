// `npm run reliability`: runs the tests that record the figures of the fault
// matrix (the tests each row of rows.ts cites whose source names the row),
// each package's in that package with its own mocha settings, keeps what they
// recorded in test/reliability/figures.json, and renders docs/reliability.md.
//   npm run reliability                          every suite's recording tests
//   npm run reliability -- --suite npm-test      only these suites (repeat --suite;
//                                                also test:pipeline, test:e2e, test:stack);
//                                                the other suites' figures are kept
//   npm run reliability -- --row owner-503       one row's test: prints its figure, writes nothing
//   npm run reliability -- --render              runs no test: renders the page again
//                                                (after `npm run soak`)
// Nothing is written when a cited test is not one mocha finds, when a test
// fails, or when a row's test recorded no figure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import * as prettier from 'prettier';
import type { RecordedFigure } from '@argcheck/testing/figures';
import { repoRoot } from '../helpers/repo.js';
import {
  compiledPath,
  isCited,
  isTest,
  missingCitations,
  NPM_TEST,
  SUITES,
  suiteOf,
  testsInSuites,
} from './citations.js';
import {
  FIGURES,
  isSoakRow,
  PAGE,
  readSoak,
  readStore,
  recorders,
  renderPage,
  suiteOfRow,
  type FigureStore,
} from './page.js';
import { ROWS, type FaultRow, type TestCitation } from './rows.js';

const argv = process.argv.slice(2);
const values = (flag: string): string[] =>
  argv.flatMap((a, i) => (a === flag && argv[i + 1] !== undefined ? [argv[i + 1] as string] : []));

async function writeFormatted(path: string, text: string): Promise<void> {
  const options = (await prettier.resolveConfig(path)) ?? {};
  writeFileSync(path, await prettier.format(text, { ...options, filepath: path }));
}

/** A mocha run: where it runs (a package, so its .mocharc applies, or the root), what, how. */
interface Run {
  suite: string;
  cwd: string;
  files: string[];
  options: readonly string[];
}

/** The mocha runs that record `rows`' figures: one per package and suite. */
function runsFor(rows: readonly FaultRow[]): Run[] {
  const runs = new Map<string, Run>();
  for (const test of rows.flatMap(recorders)) {
    const compiled = compiledPath(test.test);
    const suite = suiteOf(compiled);
    const pkg = /^(packages\/[^/]+)\/(build\/.*)$/.exec(compiled);
    const cwd = pkg ? join(repoRoot, pkg[1] as string) : repoRoot;
    const file = pkg ? (pkg[2] as string) : compiled;
    const options = SUITES.find((s) => `npm run ${s.script}` === suite)?.mocha ?? [];
    const key = `${suite}\n${cwd}`;
    const run: Run = runs.get(key) ?? { suite, cwd, files: [], options };
    if (!run.files.includes(file)) run.files.push(file);
    runs.set(key, run);
  }
  return [...runs.values()];
}

/** Runs mocha as `run` says, with the figures hooks; what the tests recorded, or undefined on failure. */
function record(run: Run): RecordedFigure[] | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-figures-'));
  const file = join(dir, 'figures.jsonl');
  writeFileSync(file, '');
  const where = relative(repoRoot, run.cwd) || '.';
  console.log(`\n${run.suite}, in ${where}: ${run.files.length} test files`);
  const mocha = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules/mocha/bin/mocha.js'),
      '--require',
      join(repoRoot, 'packages/testing/build/src/figures.js'),
      '--reporter',
      'dot',
      ...run.options,
      ...run.files,
    ],
    { cwd: run.cwd, stdio: 'inherit', env: { ...process.env, ARGCHECK_FIGURES: file } },
  );
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  rmSync(dir, { recursive: true, force: true });
  if (mocha.status !== 0) return undefined;
  return lines.map((line) => {
    const figure = JSON.parse(line) as RecordedFigure;
    return { ...figure, test: { ...figure.test, file: relative(repoRoot, figure.test.file) } };
  });
}

/**
 * Each row's figure from `recorded`: what the tests it cites recorded, in the
 * order it cites them, each text once. A recording for an unknown row, by a
 * test the row does not cite, or twice by one test, is a mistake in the test;
 * so is a row of `rows` left without one.
 */
function figuresOf(rows: readonly FaultRow[], recorded: readonly RecordedFigure[]) {
  const problems: string[] = [];
  const figures: FigureStore['figures'] = {};
  for (const r of recorded) {
    const row = ROWS.find((x) => x.id === r.row);
    if (row === undefined) {
      problems.push(`${r.test.fullTitle}: recorded a figure for no row, '${r.row}'`);
    } else if (!row.provedBy.filter(isTest).some((c) => isCited(c, r.test))) {
      problems.push(
        `${r.test.fullTitle}: recorded the figure of '${r.row}', which does not cite it`,
      );
    }
  }
  for (const row of rows) {
    const cited = row.provedBy.filter(isTest);
    const parts: { by: TestCitation; figure: string }[] = [];
    for (const c of cited) {
      const own = recorded.filter((r) => r.row === row.id && isCited(c, r.test));
      if (own.length > 1) problems.push(`'${row.id}': “${c.title}” recorded ${own.length} figures`);
      for (const r of own) parts.push({ by: c, figure: r.figure });
    }
    if (parts.length === 0) {
      problems.push(`'${row.id}': none of the tests it cites recorded a figure`);
      continue;
    }
    figures[row.id] = {
      figure: [...new Set(parts.map((p) => p.figure))].join('; '),
      recordedBy: [...new Set(parts.map((p) => p.by))],
    };
  }
  return { figures, problems };
}

const SUITE_NAMES: Record<string, string> = {
  'npm-test': NPM_TEST,
  ...Object.fromEntries(SUITES.map((s) => [s.script, `npm run ${s.script}`])),
};

async function main(): Promise<number> {
  const soak = readSoak();
  if (argv.includes('--render')) {
    writeFileSync(PAGE, await renderPage(ROWS, readStore(), soak));
    console.log(`rendered ${relative(repoRoot, PAGE)} from ${relative(repoRoot, FIGURES)}`);
    return 0;
  }

  const [only] = values('--row');
  if (only !== undefined) {
    const row = ROWS.find((r) => r.id === only);
    if (row === undefined || isSoakRow(row)) {
      console.error(`no row '${only}' whose figure a test records`);
      return 1;
    }
    const recorded: RecordedFigure[] = [];
    for (const run of runsFor([row])) {
      const figures = record(run);
      if (figures === undefined) return 1;
      recorded.push(...figures.filter((f) => f.row === row.id));
    }
    const { figures, problems } = figuresOf([row], recorded);
    for (const p of problems) console.error(p);
    console.log(`\n${row.id}: ${figures[row.id]?.figure ?? 'no figure'}`);
    return problems.length === 0 ? 0 : 1;
  }

  const missing = missingCitations(ROWS, testsInSuites());
  if (missing.length > 0) {
    console.error(`cited tests that mocha does not find:\n  ${missing.join('\n  ')}`);
    return 1;
  }
  const asked = values('--suite');
  const unknown = asked.filter((s) => SUITE_NAMES[s] === undefined);
  if (unknown.length > 0) {
    console.error(
      `--suite takes ${Object.keys(SUITE_NAMES).join(', ')}; not ${unknown.join(', ')}`,
    );
    return 1;
  }
  const suites = new Set(asked.length > 0 ? asked.map((s) => SUITE_NAMES[s]) : undefined);
  const unrecorded = ROWS.filter((r) => !isSoakRow(r) && recorders(r).length === 0);
  if (unrecorded.length > 0) {
    const ids = unrecorded.map((r) => r.id).join(', ');
    console.error(`no test a row cites records its figure (names it): ${ids}`);
    return 1;
  }
  const rows = ROWS.filter((r) => {
    const suite = suiteOfRow(r);
    return suite !== undefined && (suites.size === 0 || suites.has(suite));
  });

  const recorded: RecordedFigure[] = [];
  const failed: string[] = [];
  for (const run of runsFor(rows)) {
    const figures = record(run);
    if (figures === undefined) failed.push(`${run.suite} in ${relative(repoRoot, run.cwd) || '.'}`);
    else recorded.push(...figures);
  }
  if (failed.length > 0) {
    console.error(`\ntests failed (${failed.join('; ')}): nothing written`);
    return 1;
  }
  const { figures, problems } = figuresOf(rows, recorded);
  if (problems.length > 0) {
    console.error(`\n${problems.join('\n')}\nnothing written`);
    return 1;
  }

  const before = readStore();
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const ran = new Set(rows.map(suiteOfRow));
  const runs: FigureStore['runs'] = { ...before.runs };
  for (const suite of ran) if (suite !== undefined) runs[suite] = { date, node: process.version };
  const store: FigureStore = {
    runs,
    figures: Object.fromEntries(
      ROWS.flatMap((r) => {
        const figure = figures[r.id] ?? (ran.has(suiteOfRow(r)) ? undefined : before.figures[r.id]);
        return figure === undefined ? [] : [[r.id, figure]];
      }),
    ),
  };
  const unmeasured = ROWS.filter((r) => !isSoakRow(r) && !(r.id in store.figures));
  if (unmeasured.length > 0) {
    const ids = unmeasured.map((r) => `${r.id} (${suiteOfRow(r)})`).join(', ');
    console.error(`\nno figure yet for ${ids}: run their suites; nothing written`);
    return 1;
  }
  await writeFormatted(FIGURES, JSON.stringify(store));
  writeFileSync(PAGE, await renderPage(ROWS, store, soak));
  console.log(
    `\n${rows.length} figures recorded; wrote ${relative(repoRoot, FIGURES)} and ${relative(repoRoot, PAGE)}`,
  );
  return 0;
}

process.exitCode = await main();
