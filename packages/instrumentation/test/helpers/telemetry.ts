import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { ViewOptions } from '@opentelemetry/sdk-metrics';
import { collectPoints, PullReader } from '@argcheck/testing/metrics';
import type { Collected } from '@argcheck/testing/metrics';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';

/** What a test asserts of a log record: its event name and whole attribute object. */
export interface RecordView {
  eventName: string | undefined;
  attributes: Record<string, unknown>;
}

export interface Harness {
  inst: ToolArgumentInstrumentation;
  reader: PullReader;
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
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader], views });
  const logs = new InMemoryLogRecordExporter();
  const loggerProvider = new LoggerProvider({
    processors: [new SimpleLogRecordProcessor({ exporter: logs })],
  });
  // Attribution off unless a test asks for it: its attributes have their own tests
  // (test/attribution/), the rest assert whole attribute sets without them.
  const inst = new ToolArgumentInstrumentation({
    mcp: { enabled: false },
    attribution: false,
    ...config,
  });
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
    collect: () => collectPoints(reader),
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
