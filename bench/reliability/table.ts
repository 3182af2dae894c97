// The shape of the fault matrix (docs/reliability.md): every row says what
// goes wrong, what happens now, which tests prove it, and how
// `npm run reliability` measures it. Adding a row is one `FaultRow` entry in
// faults.ts (or the area file it imports); a cited test that mocha cannot
// find fails `npm test` (test/scale/generated-docs.test.ts) and stops the
// generator. See docs/decisions/0010-reliability-rows-cite-found-tests.md.
import type { BenchmarkName } from '../benchmarks.js';
import type { SoakCheckId, SoakResult } from './soak-result.js';

export const AREAS = [
  'Owner faults',
  'Owner credentials',
  'Concurrency',
  'Outages and recovery',
  'TTL changes',
  'Telemetry faults',
  'Adversarial arguments',
  'Repair messages',
  'Cardinality floods',
  'MCP calls',
  'argcheck CLI',
  'Collector allow-list',
  'Pipeline and fleet',
] as const;

export type Area = (typeof AREAS)[number];

/**
 * A test of one of the repository's mocha suites (`npm test`, or a suite that
 * runs the real collector, Prometheus or the stack: citations.ts): its source
 * file from the repository root, and its
 * `it` title exactly as mocha reports it (a templated title with its values),
 * or its full title (describe blocks included) where the file has several
 * tests of that `it` title.
 */
export interface TestCitation {
  test: string;
  title: string;
}

/** A check the soak judges (soak-result.ts). */
export interface SoakCitation {
  soakCheck: SoakCheckId;
}

/** A benchmark's section of docs/benchmarks.md (bench/benchmarks.ts). */
export interface BenchmarkCitation {
  benchmark: BenchmarkName;
}

export type Citation = TestCitation | SoakCitation | BenchmarkCitation;

/** `test('packages/core/test/x.test.ts', 'title')` */
export const test = (file: string, title: string): TestCitation => ({ test: file, title });

/** What a fault measured: the "measured" column, and the figures behind it. */
export interface Figure {
  figure: string;
  data?: unknown;
}

export interface MeasureContext {
  /** The last `npm run soak` (bench/results/soak.json), if there is one. */
  soak: SoakResult | undefined;
}

export interface FaultRow {
  area: Area;
  /** What goes wrong. */
  fault: string;
  /** What happens now. */
  expected: string;
  /** The tests (or soak checks, or benchmark) that prove it. */
  provedBy: readonly [Citation, ...Citation[]];
  /** Runs the fault against the real parts and says what it measured. */
  measure(context: MeasureContext): Promise<Figure>;
}
