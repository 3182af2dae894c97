// Talking to a running argcheck collector (collector-process.ts) the way an
// application and Prometheus do: OTLP/JSON requests built by hand (hostile
// inputs the SDK would never produce), its Prometheus exporter's text, and the
// records its file exporter wrote.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export type AnyValue = { stringValue?: string; intValue?: string; boolValue?: boolean };
export type KeyValue = { key: string; value: AnyValue };
export type Attributes = Record<string, string | number>;

export const attrs = (o: Attributes): KeyValue[] =>
  Object.entries(o).map(([key, v]) => ({
    key,
    value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v },
  }));

const NOW = `${Date.now()}000000`;
const START = `${Date.now() - 60_000}000000`;
export const ARGCHECK_SCOPE = '@argcheck/instrumentation';
export const CHECK_EVENT = 'tool_argument_value_check';

export function sum(
  name: string,
  unit: string,
  points: [number, Attributes][],
  monotonic = true,
): unknown {
  const dataPoints = points.map(([n, a]) => ({
    asInt: String(n),
    startTimeUnixNano: START,
    timeUnixNano: NOW,
    attributes: attrs(a),
  }));
  return { name, unit, sum: { aggregationTemporality: 2, isMonotonic: monotonic, dataPoints } };
}

export function gauge(name: string, unit: string, points: [number, Attributes][]): unknown {
  const dataPoints = points.map(([n, a]) => ({
    asDouble: n,
    timeUnixNano: NOW,
    attributes: attrs(a),
  }));
  return { name, unit, gauge: { dataPoints } };
}

export function summary(name: string, unit: string, points: [number, Attributes][]): unknown {
  const dataPoints = points.map(([n, a]) => ({
    startTimeUnixNano: START,
    timeUnixNano: NOW,
    count: String(n),
    sum: n,
    quantileValues: [{ quantile: 0.5, value: 1 }],
    attributes: attrs(a),
  }));
  return { name, unit, summary: { dataPoints } };
}

/** A cumulative histogram with one bound and one data point. */
export function histogram(name: string, unit: string, a: Attributes): unknown {
  const dataPoints = [
    {
      startTimeUnixNano: START,
      timeUnixNano: NOW,
      count: '2',
      sum: 0.3,
      bucketCounts: ['1', '1'],
      explicitBounds: [0.1],
      attributes: attrs(a),
    },
  ];
  return { name, unit, histogram: { aggregationTemporality: 2, dataPoints } };
}

export const metricsRequest = (resource: Attributes, scopes: [string, unknown[]][]): unknown => ({
  resourceMetrics: [
    {
      resource: { attributes: attrs(resource) },
      scopeMetrics: scopes.map(([name, metrics]) => ({ scope: { name }, metrics })),
    },
  ],
});

/** A log record as OTLP/JSON has it. */
export interface LogRecordJson {
  timeUnixNano?: string;
  eventName?: string;
  severityNumber?: number;
  severityText?: string;
  body?: AnyValue | { kvlistValue: { values: KeyValue[] } } | Record<string, never>;
  attributes?: KeyValue[];
}

export const logRecord = (r: Omit<LogRecordJson, 'timeUnixNano'>): LogRecordJson => ({
  timeUnixNano: NOW,
  ...r,
});

export const logsRequest = (
  resource: Attributes,
  scopes: [string, LogRecordJson[]][],
): unknown => ({
  resourceLogs: [
    {
      resource: { attributes: attrs(resource) },
      scopeLogs: scopes.map(([name, logRecords]) => ({ scope: { name }, logRecords })),
    },
  ],
});

/** POST an OTLP/JSON request to the collector's OTLP/HTTP receiver; throws unless 200. */
export async function post(port: number, path: '/v1/metrics' | '/v1/logs', body: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
}

/** Poll `read` every 100 ms until it gives something, for up to 20 s. */
export async function until<T>(what: string, read: () => Promise<T | undefined> | T | undefined) {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const found = await read();
    if (found !== undefined) return found;
    await sleep(100);
  }
  throw new Error(`waited 20 s for ${what}`);
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL = /([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Every sample of a Prometheus text exposition (comments skipped). */
export function parseExposition(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const brace = line.indexOf('{');
      const close = line.lastIndexOf('}');
      const space = line.lastIndexOf(' ');
      if (brace === -1) {
        return { name: line.slice(0, space), labels: {}, value: Number(line.slice(space + 1)) };
      }
      const labels = Object.fromEntries(
        [...line.slice(brace + 1, close).matchAll(LABEL)].map((m) => [
          m[1]!,
          m[2]!.replace(/\\(.)/g, '$1'),
        ]),
      );
      return { name: line.slice(0, brace), labels, value: Number(line.slice(close + 2)) };
    });
}

/** The collector's Prometheus exporter, once `ready` holds of its samples. */
export const scrapeWhen = (port: number, what: string, ready: (s: Sample[]) => boolean) =>
  until(what, async () => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const samples = parseExposition(text);
    return ready(samples) ? samples : undefined;
  });

/** Every sample in argcheck's namespace, however spelt: names starting tool_argument, any case. */
export const argcheckNamespace = (samples: readonly Sample[]): Sample[] =>
  samples.filter((s) => /^tool_argument/i.test(s.name));

export interface ExportedRecord {
  scope: string | undefined;
  record: LogRecordJson;
}

/** The records the file exporter wrote, once `ready` holds of them. */
export const recordsWhen = (file: string, what: string, ready: (r: ExportedRecord[]) => boolean) =>
  until(what, () => {
    if (!existsSync(file)) return undefined;
    const records = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .flatMap((line) => {
        const request = JSON.parse(line) as {
          resourceLogs: {
            scopeLogs: { scope?: { name?: string }; logRecords: LogRecordJson[] }[];
          }[];
        };
        return request.resourceLogs.flatMap((rl) =>
          rl.scopeLogs.flatMap((sl) =>
            sl.logRecords.map((record) => ({ scope: sl.scope?.name, record })),
          ),
        );
      });
    return ready(records) ? records : undefined;
  });
