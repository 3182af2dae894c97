// Real OpenTelemetry SDK pieces for benchmarks: an exporter that discards (as
// a remote one does, from the process's point of view) and a processor that
// counts what the instrumentation emits. Readers of collected data points are
// in @argcheck/testing/metrics.
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';

export interface DiscardingExporter extends LogRecordExporter {
  /** Records handed to `export` so far. */
  readonly exported: number;
}

/** A log exporter that drops every batch at once and counts the records. */
export function discardingExporter(): DiscardingExporter {
  let exported = 0;
  return {
    get exported() {
      return exported;
    },
    export(records, done) {
      exported += records.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
}

export interface CountingProcessor extends LogRecordProcessor {
  /** Records emitted through this processor so far. */
  readonly emitted: number;
}

/** A log record processor that only counts the records emitted through it. */
export function countingProcessor(): CountingProcessor {
  let emitted = 0;
  return {
    get emitted() {
      return emitted;
    },
    onEmit() {
      emitted += 1;
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}
