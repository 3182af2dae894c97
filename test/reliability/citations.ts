// Whether the tests the fault matrix cites exist: not a search of the source
// text, but the tests mocha itself finds in the repository's compiled suites
// (`mocha --dry-run`, which loads every file and runs nothing). Build first.
// Most cited tests are in `npm test`; a fault that only the real collector,
// Prometheus or the local stack can show is proved by a test of the suite that
// runs them (`npm run test:pipeline`, ...), and the page names that suite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from '../helpers/repo.js';
import type { Citation, FaultRow, TestCitation } from './rows.js';

/** A test mocha found: its compiled file (from the root), its `it` title and its full title. */
export interface FoundTest {
  file: string;
  title: string;
  fullTitle: string;
}

/**
 * The suites outside `npm test`: the npm script of each, the compiled files
 * it runs (a directory, or one file), as the root package.json's scripts
 * divide them (the first match wins), and the options its script gives mocha.
 * Everything else is `npm test` (every package's suite, and the root's
 * `test:integration`, which leaves these out).
 */
export const SUITES = [
  { script: 'test:pipeline', files: 'build/test/pipeline/', mocha: [] },
  { script: 'test:fleet', files: 'build/test/e2e/fleet.test.js', mocha: ['--timeout', '600000'] },
  { script: 'test:e2e', files: 'build/test/e2e/', mocha: ['--timeout', '600000'] },
  { script: 'test:stack', files: 'build/test/stack/', mocha: ['--timeout', '600000'] },
  {
    script: 'test:docs-commands',
    files: 'build/test/docs/docs-commands.test.js',
    mocha: ['--timeout', '900000'],
  },
] as const;

export const NPM_TEST = 'npm test';

/** The command that runs a compiled test file (`build/test/pipeline/x.test.js` → `npm run test:pipeline`). */
export function suiteOf(compiledFile: string): string {
  const suite = SUITES.find((s) => compiledFile.startsWith(s.files));
  return suite === undefined ? NPM_TEST : `npm run ${suite.script}`;
}

/** Every compiled test file of the repository's suites. */
const ALL_FILES = ['packages/*/build/test/**/*.test.js', 'build/test/**/*.test.js'];

/** Every test of every suite, as mocha lists them without running any. */
export function testsInSuites(): FoundTest[] {
  const args = [`${repoRoot}node_modules/mocha/bin/mocha.js`, '--dry-run', '--reporter', 'json'];
  const run = spawnSync(process.execPath, [...args, ...ALL_FILES], {
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

/** The source of a compiled test file: the inverse of `compiledPath`. */
export function sourcePath(compiled: string): string {
  const ts = compiled.replace(/\.js$/, '.ts');
  const inPackage = /^(packages\/[^/]+)\/build\/(test\/.*)$/.exec(ts);
  return inPackage ? `${inPackage[1]}/${inPackage[2]}` : ts.replace(/^build\//, '');
}

export const isTest = (c: Citation): c is TestCitation => 'test' in c;

/** Every test citation of `rows`, once. */
export function testCitations(rows: readonly FaultRow[]): TestCitation[] {
  const seen = new Map<string, TestCitation>();
  for (const c of rows.flatMap((r) => r.provedBy).filter(isTest)) {
    seen.set(`${c.test}\n${c.title}`, c);
  }
  return [...seen.values()];
}

/** Whether `found` (a test mocha found, or ran) is the test `c` cites. */
export function isCited(c: TestCitation, found: FoundTest): boolean {
  return (
    found.file === compiledPath(c.test) && (found.title === c.title || found.fullTitle === c.title)
  );
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
    const matches = found.filter((t) => isCited(c, t)).length;
    if (matches === 1) return [];
    const why = matches === 0 ? '' : ` (${matches} tests have this title: cite the full title)`;
    return [`${c.test}: "${c.title}"${why}`];
  });
}
