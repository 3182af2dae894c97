// How a bench file hands its figures to bench/run.mjs: it runs in its own
// child process (with --expose-gc) and writes one JSON result to the path
// given as `--json <path>`. Run alone, it just prints.
import { writeFileSync } from 'node:fs';

/**
 * A bench file's result.
 * @typedef {object} BenchResult
 * @property {string} title        section heading
 * @property {string} command      how to run this file alone
 * @property {string} method       what was measured and how (markdown)
 * @property {{ caption?: string, head: string[], rows: (string|number)[][] }[]} tables
 * @property {{ bar: string, figure: string, holds: boolean, note?: string }[]} bars
 * @property {string[]} [notes]    findings worth saying under the tables (markdown)
 * @property {object} [raw]        the unformatted figures
 */

/** `globalThis.gc`, or exit saying how to run the file. */
export function requireGc() {
  if (typeof globalThis.gc !== 'function') {
    console.error('run with node --expose-gc (bench/run.mjs does)');
    process.exit(2);
  }
  return () => {
    globalThis.gc();
    globalThis.gc();
  };
}

/** The value of `--name <value>` on the command line, if given. */
export function argValue(name) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** Write `result` where bench/run.mjs asked for it (if it did). */
export function publish(result) {
  const path = argValue('json');
  if (path !== undefined) writeFileSync(path, JSON.stringify(result));
}

/** `1234.5` → `1,234.5` with `digits` decimals. */
export function num(x, digits = 0) {
  if (!Number.isFinite(x)) return String(x);
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

export const MiB = 2 ** 20;

/** Heap plus typed-array memory (typed arrays live outside the JavaScript heap). */
export function retainedBytes() {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export const yes = (holds) => (holds ? 'holds' : '**FAILS**');
