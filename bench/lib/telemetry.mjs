// Real OpenTelemetry SDK pieces for benchmarks: a pull reader, an exporter
// that discards (as a remote one does, from the process's point of view), a
// processor that counts what the instrumentation emits, and readers of the
// collected data points.
import { MetricReader } from '@opentelemetry/sdk-metrics';

/** A reader that exports nothing: the benchmark pulls with `collect()`. */
export class PullReader extends MetricReader {
  onForceFlush() {
    return Promise.resolve();
  }
  onShutdown() {
    return Promise.resolve();
  }
}

/** A log exporter that drops every batch at once and counts the records. */
export function discardingExporter() {
  const exporter = {
    exported: 0,
    export(records, done) {
      exporter.exported += records.length;
      done({ code: 0 });
    },
    shutdown: () => Promise.resolve(),
    forceFlush: () => Promise.resolve(),
  };
  return exporter;
}

/** A log record processor that only counts the records emitted through it. */
export function countingProcessor() {
  const processor = {
    emitted: 0,
    onEmit() {
      processor.emitted += 1;
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  return processor;
}

const ARGCHECK_SCOPE = '@argcheck/instrumentation';

/** The argcheck scope's metrics in a collection. */
function argcheckMetrics(resourceMetrics) {
  return resourceMetrics.scopeMetrics
    .filter((s) => s.scope.name === ARGCHECK_SCOPE || s.scope.name === 'bench')
    .flatMap((s) => s.metrics);
}

/** Sum of the data point values of one counter. */
export function sumOf(resourceMetrics, name) {
  const metric = argcheckMetrics(resourceMetrics).find((m) => m.descriptor.name === name);
  return metric?.dataPoints.reduce((n, p) => n + p.value, 0) ?? 0;
}

/** Number of data points (series) per argcheck instrument. */
export function seriesCounts(resourceMetrics) {
  return Object.fromEntries(
    argcheckMetrics(resourceMetrics)
      .filter((m) => m.descriptor.name.startsWith('tool_argument_'))
      .map((m) => [m.descriptor.name, m.dataPoints.length])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
