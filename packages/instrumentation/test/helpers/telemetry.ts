import type { Attributes } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { ViewOptions } from '@opentelemetry/sdk-metrics';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';
import { PACKAGE_NAME } from '../../src/version.js';

/** A reader that exports nothing: tests pull with `collect()`. */
export class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** One data point: its attributes, and its value (a number; `{ count, sum }` for histograms). */
export interface Point {
  attributes: Attributes;
  value: number | { count: number; sum: number };
}

/** The argcheck scope's data points by instrument name, plus each instrument's unit. */
export interface Collected {
  points: Record<string, Point[]>;
  units: Record<string, string>;
  /** Names of the monotonic counters. */
  counters: Set<string>;
}

export async function collect(reader: MetricReader): Promise<Collected> {
  const { resourceMetrics, errors } = await reader.collect();
  if (errors.length > 0) throw new Error(`collection errors: ${errors.map(String).join('; ')}`);
  const points: Record<string, Point[]> = {};
  const units: Record<string, string> = {};
  const counters = new Set<string>();
  for (const scope of resourceMetrics.scopeMetrics) {
    if (scope.scope.name !== PACKAGE_NAME) continue;
    for (const metric of scope.metrics) {
      units[metric.descriptor.name] = metric.descriptor.unit;
      if (metric.dataPointType === DataPointType.SUM && metric.isMonotonic) {
        counters.add(metric.descriptor.name);
      }
      points[metric.descriptor.name] = metric.dataPoints.map((p) => ({
        attributes: p.attributes,
        value:
          metric.dataPointType === DataPointType.HISTOGRAM
            ? {
                count: (p.value as { count: number }).count,
                sum: (p.value as { sum: number }).sum,
              }
            : (p.value as number),
      }));
    }
  }
  return { points, units, counters };
}

/** Points of one instrument, sorted by their attributes so tests can compare whole lists. */
export function allPointsOf(collected: Collected, name: string): Point[] {
  return [...(collected.points[name] ?? [])].sort((a, b) =>
    JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
  );
}

/**
 * Like `allPointsOf`, without the counter series still at zero: every series
 * is exported from start-up (test/telemetry/zero-series.test.ts asserts them
 * all), and most tests assert what was counted.
 */
export function pointsOf(collected: Collected, name: string): Point[] {
  const points = allPointsOf(collected, name);
  return collected.counters.has(name) ? points.filter((p) => p.value !== 0) : points;
}

/** What a test asserts of a log record: its event name and whole attribute object. */
export interface RecordView {
  eventName: string | undefined;
  attributes: Record<string, unknown>;
}

export interface Harness {
  inst: ToolArgumentInstrumentation;
  reader: TestReader;
  meterProvider: MeterProvider;
  loggerProvider: LoggerProvider;
  logs: InMemoryLogRecordExporter;
  collect(): Promise<Collected>;
  records(): RecordView[];
  /** Disable and close the instrumentation, shut the providers down. */
  close(): Promise<void>;
}

/**
 * An instrumentation registered with `registerInstrumentations` against real
 * SDK providers: a MeterProvider with a pull reader and a LoggerProvider with
 * an in-memory exporter. MCP patching is off unless the config turns it on.
 */
export function harness(
  config: ToolArgumentInstrumentationConfig,
  views: ViewOptions[] = [],
): Harness {
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader], views });
  const logs = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter: logs })],
  });
  const inst = new ToolArgumentInstrumentation({ mcp: { enabled: false }, ...config });
  const unregister = registerInstrumentations({
    instrumentations: [inst],
    meterProvider,
    loggerProvider,
  });
  return {
    inst,
    reader,
    meterProvider,
    loggerProvider,
    logs,
    collect: () => collect(reader),
    records: () =>
      logs
        .getFinishedLogRecords()
        .map((r) => ({ eventName: r.eventName, attributes: r.attributes })),
    async close() {
      unregister();
      inst.close();
      await meterProvider.shutdown();
      await loggerProvider.shutdown();
    },
  };
}
