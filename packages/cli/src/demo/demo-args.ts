import { parseArgs } from 'node:util';
import type { CheckMode } from '@argcheck/core';
import { UsageError } from '../io.js';
import { positiveInteger } from '../parse-flags.js';
import { DEFAULT_CALLS_PER_SECOND } from './scenario.js';

export const DEMO_HELP = `Usage: argcheck demo [options]

Plays, in about a minute, the story of checking tool-call arguments against
the value sets their owners branch on, on real parts: a loopback HTTP owner
serving the sets, two versions of an MCP server as stdio child processes, a
seeded simulated agent calling them through real MCP clients instrumented by
argcheck, and the OpenTelemetry SDK with an in-process metric reader feeding
the live table.

Story: ~6 % of refund reason codes out of set (a quarter of them case or
format variants); a description rewrite (~1 %) rolled out to half the servers,
then to all; a provider canary (a new model on 15 % of calls, ~3 %, while the
aggregate barely moves); the refunds owner adding a seventh code (a spike
until the cached set's TTL); the identity owner down for a stretch (calls
still succeed; checks report unavailable; the set's age grows).

Options:
  --mode observe|normalise|reject
                     observe measures only; normalise rewrites case/format
                     variants; reject also refuses other mismatches with a
                     repair message listing the legal values, and the agent
                     tries again choosing from them (default: observe)
  --duration SECONDS length of the run, 1 to 3600 (default: 60)
  --seed N           seed of the simulated agent and the sampling (default: 1)
  --rate N           calls per second the agent aims for (default: ${DEFAULT_CALLS_PER_SECOND})
  --otlp URL         also ship metrics and log records over OTLP/HTTP to this
                     base endpoint, e.g. http://localhost:4318 (default: the
                     OTEL_EXPORTER_OTLP_ENDPOINT environment variable, if set)
  --logs FILE        write every sampled log record to FILE as a JSON line,
                     for "argcheck report FILE"
  --json             print the final figures as JSON on stdout (the live
                     display goes to stderr)
  -h, --help         show this help

Exit codes: 0 the run completed, 1 the demo could not start or failed,
2 usage error, 130 interrupted (the figures so far are still printed).
`;

export interface DemoArgs {
  help: boolean;
  mode: CheckMode;
  durationMs: number;
  seed: number;
  callsPerSecond: number;
  otlpEndpoint?: string;
  logFile?: string;
  json: boolean;
}

const MODES: readonly CheckMode[] = ['observe', 'normalise', 'reject'];

export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DemoArgs {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      mode: { type: 'string', default: 'observe' },
      duration: { type: 'string', default: '60' },
      seed: { type: 'string', default: '1' },
      rate: { type: 'string', default: String(DEFAULT_CALLS_PER_SECOND) },
      otlp: { type: 'string' },
      logs: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const mode = values.mode as CheckMode;
  if (!MODES.includes(mode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}, not "${values.mode}"`);
  }
  const duration = Number(values.duration);
  if (!Number.isFinite(duration) || duration < 1 || duration > 3600) {
    throw new UsageError(
      `--duration must be a number of seconds from 1 to 3600, not "${values.duration}"`,
    );
  }
  const otlp = values.otlp ?? (env['OTEL_EXPORTER_OTLP_ENDPOINT'] || undefined);
  if (otlp !== undefined && !/^https?:\/\/[^/]/.test(otlp)) {
    throw new UsageError(
      `--otlp must be an http(s) URL such as http://localhost:4318, not "${otlp}"`,
    );
  }
  return {
    help: values.help,
    mode,
    durationMs: Math.round(duration * 1000),
    seed: positiveInteger('--seed', values.seed, 0),
    callsPerSecond: positiveInteger('--rate', values.rate, 1),
    otlpEndpoint: otlp,
    logFile: values.logs,
    json: values.json,
  };
}
