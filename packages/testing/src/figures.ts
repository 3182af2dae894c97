/**
 * The figures of docs/reliability.md, recorded by the tests that prove its
 * rows. A test calls `recordFigure(row, text)` with what it measured; nothing
 * happens unless `npm run reliability` runs it, which names a file in
 * `ARGCHECK_FIGURES` and loads this module into mocha (`--require`) as a root
 * hook plugin. The hooks file a figure under the test that recorded it, and
 * only once that test has passed: a failed test records nothing.
 */
import { appendFileSync } from 'node:fs';

/** The environment variable naming the file (JSON lines) that figures are appended to. */
export const FIGURES_FILE = 'ARGCHECK_FIGURES';

/** One line of that file. */
export interface RecordedFigure {
  /** The row's `id` (test/reliability/rows.ts). */
  row: string;
  figure: string;
  /** The compiled test file (absolute), the test's title and its full title, as mocha reports them. */
  test: { file: string; title: string; fullTitle: string };
}

interface Running {
  test: RecordedFigure['test'] | undefined;
  pending: RecordedFigure[];
}

// On globalThis: a test that loads this module by another path must still meet the hooks.
const key = Symbol.for('argcheck.testing.figures');
const running = ((globalThis as Record<symbol, Running | undefined>)[key] ??= {
  test: undefined,
  pending: [],
});

/** Records `figure` as the measured figure of the fault row `row`, when the test passes. */
export function recordFigure(row: string, figure: string): void {
  if (!process.env[FIGURES_FILE]) return;
  if (running.test === undefined) {
    throw new Error(`recordFigure('${row}') outside a test, or without the root hooks loaded`);
  }
  running.pending.push({ row, figure, test: running.test });
}

/** Mocha's root hooks (`mocha --require @argcheck/testing/figures`). */
export const mochaHooks = {
  beforeEach(this: Mocha.Context): void {
    const test = this.currentTest;
    running.pending = [];
    running.test =
      test === undefined
        ? undefined
        : { file: test.file ?? '', title: test.title, fullTitle: test.fullTitle() };
  },
  afterEach(this: Mocha.Context): void {
    const file = process.env[FIGURES_FILE];
    if (file && this.currentTest?.state === 'passed') {
      for (const figure of running.pending) appendFileSync(file, `${JSON.stringify(figure)}\n`);
    }
    running.pending = [];
    running.test = undefined;
  },
};
