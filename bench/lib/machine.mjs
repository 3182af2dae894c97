// What a benchmark ran on: machine, Node, and the versions of the libraries it
// measured. Read from the running process and node_modules, never typed in.
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, release, totalmem, type } from 'node:os';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

export function packageVersion(name) {
  try {
    const text = readFileSync(`${ROOT}node_modules/${name}/package.json`, 'utf8');
    return JSON.parse(text).version;
  } catch {
    return 'not installed';
  }
}

export function machine() {
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
