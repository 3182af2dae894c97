// Every benchmark `npm run bench` runs, in the order of docs/benchmarks.md.
// Adding one: a file exporting a `Benchmark` (see README.md), and an entry here.
import type { Benchmark } from './lib/report.js';

export interface BenchmarkEntry {
  /** What `--only` takes; also names the child process's result. */
  readonly name: string;
  /** The benchmark's function, imported only in the process that runs it. */
  readonly load: () => Promise<Benchmark>;
  /** Options it runs with in `npm run bench` (`--sizes 100000`). */
  readonly args?: readonly string[];
  /** `otel3`: run in `.cache/otel3` by its Node 24 (`bash scripts/compat-otel3.sh` first). */
  readonly line?: 'otel3';
  /** Not a section of docs/benchmarks.md: runs only when named with `--only`. */
  readonly onlyWhenNamed?: boolean;
}

const instrumentationCheck = async (): Promise<Benchmark> =>
  (await import('./instrumentation-check.js')).instrumentationCheck;

const largeSets = async (): Promise<Benchmark> => (await import('./large-sets.js')).largeSets;

const frameworks = async (): Promise<Benchmark> => (await import('./frameworks.js')).frameworks;

export const BENCHMARKS = [
  { name: 'instrumentation-check', load: instrumentationCheck },
  { name: 'call-tool', load: async () => (await import('./call-tool.js')).callTool },
  // One process per size: the 1,000,000-member stage should not inherit the
  // heap (and the collector's work) of the 100,000-member one, nor it of the other.
  { name: 'large-sets', load: largeSets, args: ['--sizes', '100000'] },
  { name: 'large-sets-1m', load: largeSets, args: ['--sizes', '1000000'] },
  // The OpenAI Agents SDK needs Node 22+ (its `openai` dependency): it runs in the Node 24 tree.
  {
    name: 'frameworks-openai-agents',
    load: frameworks,
    args: ['--framework', 'openai-agents'],
    line: 'otel3',
  },
  { name: 'frameworks-langchain', load: frameworks, args: ['--framework', 'langchain'] },
  // A hook call is a microsecond or so: ten times the default calls give the profile enough samples.
  {
    name: 'frameworks-claude-agent',
    load: frameworks,
    args: ['--framework', 'claude-agent', '--profiled-turns', '2000'],
  },
  { name: 'flood-memory', load: async () => (await import('./flood-memory.js')).floodMemory },
  { name: 'hostile-sizes', load: async () => (await import('./hostile-sizes.js')).hostileSizes },
  {
    name: 'report-memory',
    load: async () => (await import('./report-memory.js')).reportMemory,
  },
  {
    name: 'match-scale',
    load: async () => (await import('./match-scale.js')).matchScale,
    onlyWhenNamed: true,
  },
  // Its figures are in docs/scaling.md.
  {
    name: 'owner-load',
    load: async () => (await import('./owner-load.js')).ownerLoad,
    onlyWhenNamed: true,
  },
  // Its figures are in docs/scaling.md; it runs the argcheck collector.
  {
    name: 'collector-capacity',
    load: async () => (await import('./collector-capacity.js')).collectorCapacity,
    onlyWhenNamed: true,
  },
  // Agent frameworks need Node 22+: they run in the Node 24 tree.
  { name: 'frameworks-ai-sdk', load: frameworks, args: ['--framework', 'ai-sdk'], line: 'otel3' },
  { name: 'frameworks-mastra', load: frameworks, args: ['--framework', 'mastra'], line: 'otel3' },
  // The same per-check figures on the other OpenTelemetry JS line, in the copy
  // of the tree that scripts/compat-otel3.sh sets up (Node 24, OTel JS 3.x).
  { name: 'instrumentation-check-otel3', load: instrumentationCheck, line: 'otel3' },
] as const satisfies readonly BenchmarkEntry[];

export type BenchmarkName = (typeof BENCHMARKS)[number]['name'];

export function benchmark(name: string): BenchmarkEntry | undefined {
  return (BENCHMARKS as readonly BenchmarkEntry[]).find((b) => b.name === name);
}
