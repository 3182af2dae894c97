import { randomUUID } from 'node:crypto';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import {
  MeterProvider,
  MetricReader,
  PeriodicExportingMetricReader,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import { watchExports, type ExportStats } from './export-stats.js';
import { createLogTap, type ToolDefinitionRecord } from './log-tap.js';
import { toSnapshot, type Snapshot } from './snapshot.js';

/** A pull reader: the demo collects from it for the live table, as Prometheus would scrape. */
class InProcessReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

export interface DemoTelemetryOptions {
  /** The views a user would install (`argcheckViews()`). */
  views: ViewOptions[];
  /** Base OTLP/HTTP endpoint (`http://localhost:4318`); metrics and logs are shipped there too. */
  otlpEndpoint?: string;
  /** Write every sampled log record to this file as a JSON line. */
  logFile?: string;
  /** How often metrics are pushed to the OTLP endpoint, in milliseconds. */
  exportIntervalMs: number;
}

export interface DemoTelemetry {
  readonly meterProvider: MeterProvider;
  readonly loggerProvider: LoggerProvider;
  collect(at: number): Promise<Snapshot>;
  /** Sampled log records emitted so far. */
  logRecords(): number;
  /** What each `tool_definition` value stands for, from its log record. */
  definitions(): ToolDefinitionRecord[];
  /** OTLP export outcomes so far (all zero without an endpoint). */
  exports(): { metrics: ExportStats; logs: ExportStats };
  /** Flushes the exporters (last export included) and stops them. */
  shutdown(): Promise<void>;
}

/** The real OpenTelemetry SDK, set up as a user would, plus a reader the demo can read. */
export function createDemoTelemetry(options: DemoTelemetryOptions): DemoTelemetry {
  // A distinct service.instance.id per run: the collector's Prometheus
  // exporter makes it the `instance` label, so two runs (or a run and another
  // process of the same name) never write the same cumulative series.
  const resource = resourceFromAttributes({
    'service.name': 'argcheck-demo',
    'service.instance.id': `argcheck-demo-${randomUUID()}`,
  });
  const reader = new InProcessReader();
  const readers: MetricReader[] = [reader];
  const tap = createLogTap(options.logFile);
  const processors: LogRecordProcessor[] = [tap];
  const metricExports: ExportStats = { succeeded: 0, failed: 0 };
  const logExports: ExportStats = { succeeded: 0, failed: 0 };
  if (options.otlpEndpoint !== undefined) {
    // A collector that does not answer delays each export, and the exit, by at most one interval.
    const timeout = options.exportIntervalMs;
    const base = options.otlpEndpoint.endsWith('/')
      ? options.otlpEndpoint
      : `${options.otlpEndpoint}/`;
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: watchExports(
          new OTLPMetricExporter({ url: new URL('v1/metrics', base).href, timeoutMillis: timeout }),
          metricExports,
        ),
        exportIntervalMillis: options.exportIntervalMs,
        exportTimeoutMillis: timeout,
      }),
    );
    processors.push(
      new BatchLogRecordProcessor({
        exporter: watchExports(
          new OTLPLogExporter({ url: new URL('v1/logs', base).href, timeoutMillis: timeout }),
          logExports,
        ),
        exportTimeoutMillis: timeout,
      }),
    );
  }
  const meterProvider = new MeterProvider({ resource, views: options.views, readers });
  const loggerProvider = new LoggerProvider({ resource, processors });
  return {
    meterProvider,
    loggerProvider,
    async collect(at) {
      const { resourceMetrics } = await reader.collect();
      return toSnapshot(at, resourceMetrics);
    },
    logRecords: () => tap.count(),
    definitions: () => tap.definitions(),
    exports: () => ({ metrics: { ...metricExports }, logs: { ...logExports } }),
    async shutdown() {
      await Promise.allSettled([meterProvider.shutdown(), loggerProvider.shutdown()]);
    },
  };
}
