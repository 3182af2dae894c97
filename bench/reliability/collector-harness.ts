// Running the real argcheck collector (otel-collector.yaml on free loopback
// ports) for a fault row, and the inputs and comparisons the collector rows
// share. Where the collector is not built, a row says so and what its test
// asserts, and measures nothing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { post, until, type LogRecordJson, type Sample } from '../lib/collector-io.js';
import { freePort, startCollector } from '../lib/collector-process.js';
import { repoRoot } from '../lib/paths.js';
import type { Figure } from './table.js';

export const REGRESSION = 'test/pipeline/regression';
const BINARY = join(repoRoot, '.cache/otelcol/argcheck-otelcol');

export interface RunningCollector {
  /** POST an OTLP/JSON request (retried while the receiver is not yet listening). */
  post(path: '/v1/metrics' | '/v1/logs', body: unknown): Promise<void>;
  prom: number;
  logFile: string;
}

/**
 * Runs `measure` against a collector started for it, or, where the collector
 * is not built, measures nothing and says what the cited test asserts.
 */
export async function withCollector(
  asserts: string,
  measure: (c: RunningCollector) => Promise<Figure>,
): Promise<Figure> {
  if (!existsSync(BINARY)) {
    return {
      figure: `not measured: no collector built here (\`npm run pipeline:build\`); the test asserts ${asserts}`,
      data: { measured: false },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-reliability-collector-'));
  // Log records also go to an OTLP backend; none listens there, and the file gets them all.
  const collector = await startCollector(dir, await freePort(), 512);
  try {
    return await measure({
      prom: collector.ports.prom,
      logFile: join(dir, 'logs.jsonl'),
      post: (path, body) =>
        until('the OTLP receiver', () =>
          post(collector.ports.http, path, body).then(
            () => true,
            (error: Error) => {
              if (error.message.startsWith(path)) throw error;
              return undefined; // not listening yet
            },
          ),
        ).then(() => undefined),
    });
  } finally {
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const refund = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: 'refunds.reason_codes',
};
export const identity = { job: 'refund-agent', instance: 'pod-1' };
export const agent = { 'service.name': 'refund-agent', 'service.instance.id': 'pod-1' };
export const valueSet = { set: 'refunds.reason_codes', source: 'http' };
export const leak = { ...refund, value: 'MODEL_TEXT' };
export const contract = { ...refund, in_set: 'true', in_set_normalised: 'true' };
export const LONG = 'x'.repeat(5_005);

const canonical = (s: Sample): string =>
  JSON.stringify([s.name, Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)), s.value]);
const same = (a: Sample, b: Sample): boolean => canonical(a) === canonical(b);
/** Samples of `got` that are not among `expected`, and how many of `expected` were there. */
export function compare(got: readonly Sample[], expected: readonly Sample[]) {
  return {
    extra: got.filter((s) => !expected.some((e) => same(s, e))),
    found: expected.filter((e) => got.some((s) => same(s, e))).length,
  };
}
/** Characters in a record's body: a string's length, or a map's as JSON; none is 0. */
export function bodyLength(r: LogRecordJson | undefined): number {
  const body = r?.body;
  if (body === undefined || JSON.stringify(body) === '{}') return 0;
  return 'stringValue' in body ? (body.stringValue?.length ?? 0) : JSON.stringify(body).length;
}
