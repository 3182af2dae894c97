// What a benchmark hands the runner, and the helpers every benchmark uses to
// build it. See bench/README.md for the pattern.

/** One table of a section: right-aligned where every cell is a number. */
export interface ResultTable {
  caption?: string;
  head: string[];
  rows: (string | number)[][];
}

/** A target set in an issue, and whether this run met it. */
export interface Bar {
  bar: string;
  figure: string;
  holds: boolean;
}

/** A benchmark's section of docs/benchmarks.md. */
export interface BenchResult {
  /** Section heading. */
  title: string;
  /** What was measured and how (markdown). */
  method: string;
  tables: ResultTable[];
  bars: Bar[];
  /** Findings worth saying under the tables (markdown). */
  notes?: string[];
  /** The unformatted figures. */
  raw?: unknown;
}

/**
 * The options a benchmark was started with: `--name value` pairs after the
 * benchmark's name (`npm run bench -- --only call-tool -- --rounds 20`); the
 * last of a repeated option wins, so options given on the command line
 * override those bench/benchmarks.ts gives.
 */
export interface BenchOptions {
  number(name: string, fallback: number): number;
  string(name: string, fallback: string): string;
}

/** A benchmark: one file, one exported function of this type. */
export type Benchmark = (options: BenchOptions) => Promise<BenchResult>;

export function parseOptions(argv: readonly string[]): BenchOptions {
  const value = (name: string): string | undefined => {
    const at = argv.lastIndexOf(`--${name}`);
    return at === -1 ? undefined : argv[at + 1];
  };
  return {
    number(name, fallback) {
      const text = value(name);
      if (text === undefined) return fallback;
      const n = Number(text);
      if (!Number.isFinite(n)) throw new Error(`--${name} takes a number, got ${text}`);
      return n;
    },
    string: (name, fallback) => value(name) ?? fallback,
  };
}

/** A full garbage collection, or an error saying how to run the process. */
export function requireGc(): () => void {
  const gc = globalThis.gc;
  if (typeof gc !== 'function') {
    throw new Error('run with node --expose-gc (npm run bench does)');
  }
  return () => {
    gc();
    gc();
  };
}

/** `1234.5` → `1,234.5` with `digits` decimals. */
export function num(x: number, digits = 0): string {
  if (!Number.isFinite(x)) return String(x);
  return x.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** `+1.25` / `-0.50`: a change, signed. */
export function signed(x: number, digits = 2): string {
  return `${x >= 0 ? '+' : ''}${num(x, digits)}`;
}

export const MiB = 2 ** 20;

/** Heap plus typed-array memory (typed arrays live outside the JavaScript heap). */
export function retainedBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
