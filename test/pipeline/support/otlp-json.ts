/**
 * Hand-built OTLP/JSON requests for the collector tests. Hostile inputs (a
 * Summary under an argcheck name, a 5,000-character body) are ones the SDK
 * would never produce, so they are written out here instead.
 */

export type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
};
export type KeyValue = { key: string; value: AnyValue };
export type AttributeInput = Record<string, string | boolean | number>;

export const attrs = (o: AttributeInput): KeyValue[] =>
  Object.entries(o).map(([key, v]) => ({
    key,
    value:
      typeof v === 'boolean'
        ? { boolValue: v }
        : typeof v === 'number'
          ? { intValue: String(v) }
          : { stringValue: v },
  }));

export const NOW = `${Date.now()}000000`;
export const START = `${Date.now() - 60_000}000000`;

export const ARGCHECK_SCOPE = '@argcheck/instrumentation';
export const CHECK_EVENT = 'tool_argument_value_check';

const DELTA = 1;
const CUMULATIVE = 2;

export function sum(
  name: string,
  unit: string,
  points: [number, AttributeInput][],
  options: { monotonic?: boolean; delta?: boolean } = {},
): unknown {
  return {
    name,
    unit,
    sum: {
      aggregationTemporality: options.delta ? DELTA : CUMULATIVE,
      isMonotonic: options.monotonic ?? true,
      dataPoints: points.map(([n, a]) => ({
        asInt: String(n),
        startTimeUnixNano: START,
        timeUnixNano: NOW,
        attributes: attrs(a),
      })),
    },
  };
}

export function gauge(name: string, unit: string, points: [number, AttributeInput][]): unknown {
  return {
    name,
    unit,
    gauge: {
      dataPoints: points.map(([n, a]) => ({
        asDouble: n,
        timeUnixNano: NOW,
        attributes: attrs(a),
      })),
    },
  };
}

export function histogram(
  name: string,
  unit: string,
  points: { count: number; sum: number; buckets: number[]; bounds: number[]; a: AttributeInput }[],
): unknown {
  return {
    name,
    unit,
    histogram: {
      aggregationTemporality: CUMULATIVE,
      dataPoints: points.map((p) => ({
        startTimeUnixNano: START,
        timeUnixNano: NOW,
        count: String(p.count),
        sum: p.sum,
        bucketCounts: p.buckets.map(String),
        explicitBounds: p.bounds,
        attributes: attrs(p.a),
      })),
    },
  };
}

export function summary(name: string, unit: string, points: [number, AttributeInput][]): unknown {
  return {
    name,
    unit,
    summary: {
      dataPoints: points.map(([n, a]) => ({
        startTimeUnixNano: START,
        timeUnixNano: NOW,
        count: String(n),
        sum: n,
        quantileValues: [{ quantile: 0.5, value: 1 }],
        attributes: attrs(a),
      })),
    },
  };
}

export interface Scoped<T> {
  scope: string;
  items: T[];
}

export function metricsRequest(resource: AttributeInput, scopes: Scoped<unknown>[]): unknown {
  return {
    resourceMetrics: [
      {
        resource: { attributes: attrs(resource) },
        scopeMetrics: scopes.map((s) => ({ scope: { name: s.scope }, metrics: s.items })),
      },
    ],
  };
}

/** A log record as the collector's file exporter writes it (OTLP/JSON). */
export interface LogRecordJson {
  timeUnixNano?: string;
  eventName?: string;
  severityNumber?: number;
  severityText?: string;
  body?: AnyValue | { kvlistValue: { values: KeyValue[] } };
  attributes?: KeyValue[];
}

export function logsRequest(resource: AttributeInput, scopes: Scoped<LogRecordJson>[]): unknown {
  return {
    resourceLogs: [
      {
        resource: { attributes: attrs(resource) },
        scopeLogs: scopes.map((s) => ({ scope: { name: s.scope }, logRecords: s.items })),
      },
    ],
  };
}

/**
 * A record as the file exporter writes it: a record without a body comes out
 * with an empty one (`"body": {}`).
 */
export const asExported = (r: LogRecordJson): LogRecordJson => ({ ...r, body: r.body ?? {} });

/** Attributes of an exported record as a plain object, values with their kind. */
export const attributeObject = (r: LogRecordJson): Record<string, AnyValue> =>
  Object.fromEntries((r.attributes ?? []).map((kv) => [kv.key, kv.value]));

/** The same, for records whose values are all strings (what the allow-list leaves). */
export const stringAttributes = (r: LogRecordJson): Record<string, string | undefined> =>
  Object.fromEntries((r.attributes ?? []).map((kv) => [kv.key, kv.value.stringValue]));
