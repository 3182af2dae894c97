// Whether the tests the fault matrix cites exist: not a search of the source
// text, but the tests mocha itself finds in `npm test`'s compiled suites
// (`mocha --dry-run`, which loads every file and runs nothing). Build first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from '../lib/paths.js';
import type { Citation, FaultRow, TestCitation } from './table.js';

/** A test mocha found: its compiled file (from the root), its `it` title and its full title. */
export interface FoundTest {
  file: string;
  title: string;
  fullTitle: string;
}

/** The suites `npm test` runs: every package's and the root's, less pipeline and e2e. */
const SUITES = ['packages/*/build/test/**/*.test.js', 'build/test/**/*.test.js'];
const NOT_IN_NPM_TEST = ['build/test/pipeline/**', 'build/test/e2e/**'];

/** Every test in `npm test`, as mocha lists them without running any. */
export function testsInNpmTest(): FoundTest[] {
  const args = [
    `${repoRoot}node_modules/mocha/bin/mocha.js`,
    '--dry-run',
    '--reporter',
    'json',
    ...SUITES,
    ...NOT_IN_NPM_TEST.flatMap((glob) => ['--ignore', glob]),
  ];
  const run = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  if (run.status !== 0 || json === '') {
    throw new Error(`mocha --dry-run failed (${run.status}): ${run.stderr.slice(-2_000)}`);
  }
  const { tests } = JSON.parse(json) as { tests: FoundTest[] };
  return tests.map((t) => ({ ...t, file: relative(repoRoot, t.file) }));
}

/** Where the build puts a test source: `packages/x/test/a.test.ts` → `packages/x/build/test/a.test.js`. */
export function compiledPath(source: string): string {
  const js = source.replace(/\.ts$/, '.js');
  const inPackage = /^(packages\/[^/]+)\/(test\/.*)$/.exec(js);
  return inPackage ? `${inPackage[1]}/build/${inPackage[2]}` : `build/${js}`;
}

const isTest = (c: Citation): c is TestCitation => 'test' in c;

/** Every test citation of `rows`, once. */
export function testCitations(rows: readonly FaultRow[]): TestCitation[] {
  const seen = new Map<string, TestCitation>();
  for (const c of rows.flatMap((r) => r.provedBy).filter(isTest)) {
    seen.set(`${c.test}\n${c.title}`, c);
  }
  return [...seen.values()];
}

/**
 * Citations that do not name exactly one test mocha finds: a renamed, moved
 * or deleted test, or an `it` title that several tests in the file share
 * (cite the full title, describe blocks included, then). The source file must
 * exist too: a build directory keeps the compiled copy of a deleted test.
 */
export function missingCitations(
  rows: readonly FaultRow[],
  found: readonly FoundTest[],
  sourceExists: (file: string) => boolean = (file) => existsSync(`${repoRoot}${file}`),
): string[] {
  return testCitations(rows).flatMap((c) => {
    if (!sourceExists(c.test)) return [`${c.test}: "${c.title}" (the file is gone)`];
    const file = compiledPath(c.test);
    const matches = found.filter(
      (t) => t.file === file && (t.title === c.title || t.fullTitle === c.title),
    ).length;
    if (matches === 1) return [];
    const why = matches === 0 ? '' : ` (${matches} tests have this title: cite the full title)`;
    return [`${c.test}: "${c.title}"${why}`];
  });
}
