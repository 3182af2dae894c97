import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../helpers/wait.js';
import { REPO_ROOT, collectorBinary } from './tools.js';

// otel-collector.yaml, run by the real argcheck collector on loopback ports,
// fed hand-written OTLP/JSON (not the instrumentation: that is the end-to-end
// test's job). Proves what the collector itself promises: Prometheus names
// with suffixes, the per-instrument allow-lists (with counts merged, not
// lost), string attribute values, and capped, allow-listed log records.

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type AnyValue = { stringValue?: string; boolValue?: boolean; intValue?: string };
type KeyValue = { key: string; value: AnyValue };

const attrs = (o: Record<string, string | boolean>): KeyValue[] =>
  Object.entries(o).map(([key, v]) => ({
    key,
    value: typeof v === 'boolean' ? { boolValue: v } : { stringValue: v },
  }));

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const now = `${Date.now()}000000`;
const start = `${Date.now() - 60_000}000000`;

function metricsRequest(): unknown {
  const sum = (
    name: string,
    unit: string,
    points: [number, Record<string, string | boolean>][],
  ) => ({
    name,
    unit,
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: points.map(([n, a]) => ({
        asInt: String(n),
        startTimeUnixNano: start,
        timeUnixNano: now,
        attributes: attrs(a),
      })),
    },
  });
  const gauge = (name: string, unit: string, points: [number, Record<string, string>][]) => ({
    name,
    unit,
    gauge: {
      dataPoints: points.map(([n, a]) => ({
        asDouble: n,
        timeUnixNano: now,
        attributes: attrs(a),
      })),
    },
  });
  const set = { set: 'refunds.reason_codes', source: 'http' };
  return {
    resourceMetrics: [
      {
        resource: {
          attributes: attrs({ 'service.name': 'refund-agent', 'service.instance.id': 'pod-1' }),
        },
        scopeMetrics: [
          {
            scope: { name: '@argcheck/instrumentation', version: '0.0.0-test' },
            metrics: [
              sum('tool_argument_value_check', '{check}', [
                // A misconfigured application added the emitted value as an
                // attribute: two series that must merge back into one.
                [
                  5,
                  {
                    ...refund,
                    in_set: 'false',
                    in_set_normalised: 'false',
                    value: 'CUSTOMER_UNHAPPY',
                  },
                ],
                // ...one of them with a boolean instead of the string "false".
                [7, { ...refund, in_set: false, in_set_normalised: 'false', value: 'NOT_A_CODE' }],
                [988, { ...refund, in_set: 'true', in_set_normalised: 'true' }],
              ]),
              sum('tool_argument_mismatch', '{check}', [
                [5, { ...refund, shape: 'invented', 'gen_ai.conversation.id': 'c-1' }],
                [7, { ...refund, shape: 'invented', 'gen_ai.conversation.id': 'c-2' }],
              ]),
              sum('tool_argument_check_unavailable', '{check}', [
                [3, { ...refund, reason: 'timeout' }],
              ]),
              sum('tool_argument_repair_started', '{call}', [
                [4, { tool: 'refund_order', argument: 'x' }],
              ]),
              sum('tool_argument_rewritten', '{call}', [[2, refund]]),
              sum('tool_argument_value_set_fetch', '{fetch}', [
                [9, { ...set, outcome: 'success' }],
              ]),
              {
                name: 'tool_argument_value_set_fetch_duration',
                unit: 's',
                histogram: {
                  aggregationTemporality: 2,
                  dataPoints: [
                    {
                      startTimeUnixNano: start,
                      timeUnixNano: now,
                      count: '9',
                      sum: 0.9,
                      bucketCounts: ['6', '3', '0'],
                      explicitBounds: [0.1, 1],
                      attributes: attrs({ ...set, outcome: 'success', url: 'https://owner/x' }),
                    },
                  ],
                },
              },
              gauge('tool_argument_value_set_age', 's', [
                [12, { ...set, replica: 'a' }],
                [40, { ...set, replica: 'b' }],
              ]),
              gauge('tool_argument_value_set_size', '{value}', [[6, set]]),
              // Not argcheck's: passes through untouched.
              gauge('app_queue_depth', '{item}', [[3, { queue: 'refunds' }]]),
            ],
          },
        ],
      },
    ],
  };
}

const LONG_VALUE = 'é'.repeat(200); // 200 UTF-16 units, 400 UTF-8 bytes

function logsRequest(): unknown {
  return {
    resourceLogs: [
      {
        resource: { attributes: attrs({ 'service.name': 'refund-agent' }) },
        scopeLogs: [
          {
            scope: { name: '@argcheck/instrumentation' },
            logRecords: [
              {
                timeUnixNano: now,
                eventName: 'tool_argument_value_check',
                severityNumber: 13,
                attributes: attrs({
                  ...refund,
                  in_set: false,
                  in_set_normalised: 'false',
                  shape: 'invented',
                  value: LONG_VALUE,
                  value_truncated: 'false',
                  'gen_ai.conversation.id': 'conv-1',
                  'gen_ai.tool.call.id': 'call-1',
                  'user.email': 'someone@example.com',
                  prompt: 'the whole prompt',
                }),
              },
              {
                timeUnixNano: now,
                eventName: 'tool_argument_value_check',
                attributes: attrs({
                  ...refund,
                  in_set: 'true',
                  in_set_normalised: 'true',
                  value: 'DUPLICATE',
                }),
              },
              {
                timeUnixNano: now,
                body: { stringValue: 'somebody else’s log' },
                attributes: attrs({ 'user.email': 'kept@example.com' }),
              },
            ],
          },
        ],
      },
    ],
  };
}

const LOG_ATTRIBUTES = [
  'tool',
  'argument',
  'set',
  'in_set',
  'in_set_normalised',
  'shape',
  'value',
  'value_truncated',
  'gen_ai.conversation.id',
  'gen_ai.tool.call.id',
];

interface ExportedLogRecord {
  eventName?: string;
  attributes?: KeyValue[];
}

describe('pipeline: the collector with otel-collector.yaml', function () {
  this.timeout(60_000);

  let child: ChildProcess | undefined;
  let dir: string;
  let stderr = '';
  let ports: { grpc: number; http: number; prom: number; self: number };
  let logFile: string;
  let scrape = '';
  let records: ExportedLogRecord[] = [];

  before(async function () {
    const bin = collectorBinary();
    dir = mkdtempSync(join(tmpdir(), 'argcheck-collector-'));
    logFile = join(dir, 'logs', 'argcheck-logs.jsonl');
    ports = {
      grpc: await freePort(),
      http: await freePort(),
      prom: await freePort(),
      self: await freePort(),
    };
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_')),
      ),
      ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
      ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
      ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.prom}`,
      ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
      ARGCHECK_LOG_FILE: logFile,
      // ARGCHECK_OTLP_LOGS_ENDPOINT deliberately unset: the default must not
      // stop the file exporter.
    };
    child = spawn(bin, ['--config', join(REPO_ROOT, 'otel-collector.yaml')], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    await waitFor('the collector to start', async () =>
      stderr.includes('Everything is ready')
        ? true
        : child?.exitCode != null
          ? Promise.reject(new Error(stderr))
          : undefined,
    );

    const post = async (path: string, body: unknown): Promise<void> => {
      const res = await fetch(`http://127.0.0.1:${ports.http}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.text()}`).to.equal(200);
    };
    await post('/v1/metrics', metricsRequest());
    await post('/v1/logs', logsRequest());

    scrape = await waitFor('argcheck series on the Prometheus exporter', async () => {
      const text = await (await fetch(`http://127.0.0.1:${ports.prom}/metrics`)).text();
      return text.includes('tool_argument_value_set_size') ? text : undefined;
    });
    records = await waitFor('log records in the file exporter', () => {
      if (!existsSync(logFile)) return Promise.resolve(undefined);
      const lines = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      const found = lines.flatMap((line) => {
        const request = JSON.parse(line) as {
          resourceLogs: { scopeLogs: { logRecords: ExportedLogRecord[] }[] }[];
        };
        return request.resourceLogs.flatMap((rl) => rl.scopeLogs.flatMap((sl) => sl.logRecords));
      });
      return Promise.resolve(found.length >= 3 ? found : undefined);
    });
  });

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([
        new Promise((r) => child!.once('exit', r)),
        sleep(5_000).then(() => child!.kill('SIGKILL')),
      ]);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Sample lines of one series name (exact, so _total does not match _total_x). */
  const samples = (name: string): string[] =>
    scrape.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

  const labelsOf = (line: string): Record<string, string> =>
    Object.fromEntries(
      [
        ...line
          .slice(line.indexOf('{') + 1, line.lastIndexOf('}'))
          .matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g),
      ].map((m) => [m[1]!, m[2]!]),
    );
  const valueOf = (line: string): number => Number(line.slice(line.lastIndexOf(' ') + 1));

  it('names counters with _total and units with suffixes', () => {
    for (const name of [
      'tool_argument_value_check_total',
      'tool_argument_mismatch_total',
      'tool_argument_check_unavailable_total',
      'tool_argument_repair_started_total',
      'tool_argument_rewritten_total',
      'tool_argument_value_set_fetch_total',
      'tool_argument_value_set_fetch_duration_seconds_bucket',
      'tool_argument_value_set_fetch_duration_seconds_count',
      'tool_argument_value_set_age_seconds',
      'tool_argument_value_set_size',
    ]) {
      expect(samples(name), `${name}\n${scrape}`).to.not.be.empty;
    }
  });

  it('keeps exactly the contract labels on every argcheck series (plus job and instance)', () => {
    const expected: Record<string, string[]> = {
      tool_argument_value_check_total: ['tool', 'argument', 'set', 'in_set', 'in_set_normalised'],
      tool_argument_mismatch_total: ['tool', 'argument', 'set', 'shape'],
      tool_argument_check_unavailable_total: ['tool', 'argument', 'set', 'reason'],
      tool_argument_repair_started_total: ['tool'],
      tool_argument_rewritten_total: ['tool', 'argument', 'set'],
      tool_argument_value_set_fetch_total: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_count: ['set', 'source', 'outcome'],
      tool_argument_value_set_fetch_duration_seconds_bucket: ['set', 'source', 'outcome', 'le'],
      tool_argument_value_set_age_seconds: ['set', 'source'],
      tool_argument_value_set_size: ['set', 'source'],
    };
    for (const [name, labels] of Object.entries(expected)) {
      for (const line of samples(name)) {
        expect(Object.keys(labelsOf(line)).sort(), line).to.deep.equal(
          [...labels, 'job', 'instance'].sort(),
        );
        expect(labelsOf(line)).to.include({ job: 'refund-agent', instance: 'pod-1' });
      }
    }
    expect(scrape).not.to.include('CUSTOMER_UNHAPPY');
    expect(scrape).not.to.include('otel_scope_');
  });

  it('merges the data points an extra attribute had split, instead of keeping one of them', () => {
    const out = samples('tool_argument_value_check_total').filter(
      (l) => labelsOf(l).in_set === 'false',
    );
    expect(out, scrape).to.have.length(1); // the boolean false became the string "false"
    expect(valueOf(out[0]!)).to.equal(12);
    const inSet = samples('tool_argument_value_check_total').filter(
      (l) => labelsOf(l).in_set === 'true',
    );
    expect(inSet.map(valueOf)).to.deep.equal([988]);
    expect(samples('tool_argument_mismatch_total').map(valueOf)).to.deep.equal([12]);
    expect(samples('tool_argument_repair_started_total').map(valueOf)).to.deep.equal([4]);
    expect(
      samples('tool_argument_value_set_fetch_duration_seconds_count').map(valueOf),
    ).to.deep.equal([9]);
  });

  it('reports the oldest age and the largest size of a set', () => {
    expect(samples('tool_argument_value_set_age_seconds').map(valueOf)).to.deep.equal([40]);
    expect(samples('tool_argument_value_set_size').map(valueOf)).to.deep.equal([6]);
  });

  it('leaves metrics that are not argcheck’s alone', () => {
    const line = scrape.split('\n').find((l) => l.startsWith('app_queue_depth'));
    expect(line, scrape).to.exist;
    expect(labelsOf(line!)).to.include({ queue: 'refunds' });
  });

  it('keeps only contract attributes on argcheck log records, as strings', () => {
    const argcheck = records.filter((r) => r.eventName === 'tool_argument_value_check');
    expect(argcheck).to.have.length(2);
    for (const r of argcheck) {
      for (const kv of r.attributes ?? []) {
        expect(LOG_ATTRIBUTES, kv.key).to.include(kv.key);
        expect(kv.value, kv.key).to.have.all.keys('stringValue');
      }
    }
    const first = Object.fromEntries(
      (argcheck[0]!.attributes ?? []).map((kv) => [kv.key, kv.value.stringValue]),
    );
    expect(first).to.include({
      tool: 'refund_order',
      in_set: 'false',
      shape: 'invented',
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.tool.call.id': 'call-1',
    });
  });

  it('caps attribute values at 256 bytes on a UTF-8 boundary and says so in value_truncated', () => {
    const argcheck = records.filter((r) => r.eventName === 'tool_argument_value_check');
    const first = Object.fromEntries(
      (argcheck[0]!.attributes ?? []).map((kv) => [kv.key, kv.value.stringValue]),
    );
    expect(Buffer.byteLength(first.value!, 'utf8')).to.equal(256);
    expect(first.value).to.equal('é'.repeat(128));
    expect(first.value_truncated).to.equal('true');
    const second = Object.fromEntries(
      (argcheck[1]!.attributes ?? []).map((kv) => [kv.key, kv.value.stringValue]),
    );
    expect(second.value).to.equal('DUPLICATE');
    expect(second).not.to.have.property('value_truncated');
  });

  it('passes other log records through untouched', () => {
    const other = records.find((r) => r.eventName === undefined || r.eventName === '');
    expect(other?.attributes).to.deep.equal(attrs({ 'user.email': 'kept@example.com' }));
  });

  it('keeps writing the log file while the default otlp_http endpoint is unreachable', () => {
    expect(child?.exitCode, stderr).to.equal(null);
    expect(records.length).to.be.at.least(3);
  });
});
