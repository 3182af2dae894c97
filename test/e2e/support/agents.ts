/**
 * The applications of the end-to-end test, each with the OpenTelemetry SDK
 * set up the way the instrumentation's README says: a MeterProvider with
 * `argcheckViews()` and a PeriodicExportingMetricReader over the OTLP/HTTP
 * metric exporter, a LoggerProvider with a BatchLogRecordProcessor over the
 * OTLP/HTTP log exporter, and `registerInstrumentations`.
 *
 * Plus one misconfigured application: a legacy service that hand-rolled a
 * `tool_argument_value_check` counter of its own and puts the emitted value
 * (and a boolean) on it.
 */
import { diag, DiagLogLevel, type DiagLogger } from '@opentelemetry/api';
import type { Counter } from '@opentelemetry/api';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  type LogRecordProcessor,
  type SdkLogRecord,
} from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import {
  ToolArgumentInstrumentation,
  type ToolArgumentInstrumentationConfig,
} from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';

/** Warnings and errors of the SDKs and the instrumentation, for assertion messages. */
export const sdkDiagnostics: string[] = [];

const captureDiag: DiagLogger = {
  error: (message, ...args) =>
    sdkDiagnostics.push(`error: ${message} ${args.map(String).join(' ')}`),
  warn: (message, ...args) => sdkDiagnostics.push(`warn: ${message} ${args.map(String).join(' ')}`),
  info: () => undefined,
  debug: () => undefined,
  verbose: () => undefined,
};

export function captureSdkDiagnostics(): void {
  diag.setLogger(captureDiag, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
}

export interface ServiceIdentity {
  /** service.name: the `job` label in Prometheus. */
  name: string;
  /** service.instance.id: the `instance` label in Prometheus. */
  instance: string;
}

/**
 * What an application's own logging setup adds to every log record it emits
 * (request context: the end user, a session token). The collector must strip
 * it from argcheck's records.
 */
export const ENRICHMENT_ATTRIBUTES: Readonly<Record<string, string>> = {
  'enduser.id': 'customer-8812',
  'session.token': 'tok_live_5f2a9c',
};

class EnrichingProcessor implements LogRecordProcessor {
  onEmit(record: SdkLogRecord): void {
    for (const [key, value] of Object.entries(ENRICHMENT_ATTRIBUTES))
      record.setAttribute(key, value);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

function resourceOf(service: ServiceIdentity): ReturnType<typeof resourceFromAttributes> {
  return resourceFromAttributes({
    'service.name': service.name,
    'service.instance.id': service.instance,
  });
}

function meterProviderFor(
  service: ServiceIdentity,
  otlpHttpUrl: string,
  options: { views: boolean },
): MeterProvider {
  return new MeterProvider({
    resource: resourceOf(service),
    ...(options.views ? { views: argcheckViews() } : {}),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${otlpHttpUrl}/v1/metrics` }),
        exportIntervalMillis: 1_000,
        exportTimeoutMillis: 1_000,
      }),
    ],
  });
}

function loggerProviderFor(service: ServiceIdentity, otlpHttpUrl: string): LoggerProvider {
  return new LoggerProvider({
    resource: resourceOf(service),
    processors: [
      new EnrichingProcessor(),
      new BatchLogRecordProcessor({
        exporter: new OTLPLogExporter({ url: `${otlpHttpUrl}/v1/logs` }),
        // logSampleRatio is 1 in this run: every check is a record, and a
        // round of checks is emitted in one synchronous burst.
        maxQueueSize: 20_000,
        maxExportBatchSize: 1_000,
        scheduledDelayMillis: 200,
      }),
    ],
  });
}

export class Agent {
  readonly inst: ToolArgumentInstrumentation;
  readonly meterProvider: MeterProvider;
  readonly loggerProvider: LoggerProvider;
  private readonly unregister: () => void;

  constructor(
    readonly service: ServiceIdentity,
    otlpHttpUrl: string,
    config: ToolArgumentInstrumentationConfig,
  ) {
    this.meterProvider = meterProviderFor(service, otlpHttpUrl, { views: true });
    this.loggerProvider = loggerProviderFor(service, otlpHttpUrl);
    this.inst = new ToolArgumentInstrumentation(config);
    this.unregister = registerInstrumentations({
      instrumentations: [this.inst],
      meterProvider: this.meterProvider,
      loggerProvider: this.loggerProvider,
    });
  }

  /** A log record of the application's own (not argcheck's), through the same LoggerProvider. */
  logOwnRecord(body: string): void {
    this.loggerProvider.getLogger('dispatcher').emit({ body, severityText: 'INFO' });
  }

  /** Export metrics and queued log records now. */
  async flush(): Promise<void> {
    await Promise.all([this.meterProvider.forceFlush(), this.loggerProvider.forceFlush()]);
  }

  async shutdown(): Promise<void> {
    this.unregister();
    this.inst.close();
    await Promise.allSettled([this.meterProvider.shutdown(), this.loggerProvider.shutdown()]);
  }
}

/**
 * The misconfigured application: its own MeterProvider (no argcheck views, and
 * they would not apply to its meter anyway) and a hand-made counter with the
 * argcheck instrument name, recording the emitted value as an attribute.
 */
export class RogueApp {
  readonly meterProvider: MeterProvider;
  readonly counter: Counter;

  constructor(
    readonly service: ServiceIdentity,
    otlpHttpUrl: string,
    instrument = 'tool_argument_value_check',
  ) {
    this.meterProvider = meterProviderFor(service, otlpHttpUrl, { views: false });
    this.counter = this.meterProvider
      .getMeter(`${service.name}-metrics`)
      .createCounter(instrument, { unit: '{check}' });
  }

  async flush(): Promise<void> {
    await this.meterProvider.forceFlush();
  }

  async shutdown(): Promise<void> {
    await this.meterProvider.shutdown().catch(() => undefined);
  }
}
