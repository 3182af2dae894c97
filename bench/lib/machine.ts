// What a benchmark ran on: machine, Node, and the versions of the libraries it
// measured. Read from the running process and node_modules, never typed in.
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem, type } from 'node:os';
import { repoRoot } from './paths.js';

const LIBRARIES = [
  '@opentelemetry/api',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/sdk-logs',
  '@opentelemetry/instrumentation',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/server',
  'prom-client',
  'ajv',
  'zod',
];

/** The installed version of `name` (read from disk: 3.x OpenTelemetry packages do not export ./package.json). */
export function packageVersion(name: string, root = repoRoot): string {
  try {
    const text = readFileSync(`${root}node_modules/${name}/package.json`, 'utf8');
    return (JSON.parse(text) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  os: string;
  loadAverage: number[];
  node: string;
  v8: string;
  libraries: Record<string, string>;
  argcheck: Record<string, string>;
}

export function machine(): Machine {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    os: `${type()} ${release()}`,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
    v8: process.versions.v8,
    libraries: Object.fromEntries(LIBRARIES.map((name) => [name, packageVersion(name)])),
    argcheck: {
      '@argcheck/core': packageVersion('@argcheck/core'),
      '@argcheck/instrumentation': packageVersion('@argcheck/instrumentation'),
    },
  };
}
