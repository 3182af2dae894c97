// Real OpenTelemetry SDK pieces for benchmarks: a pull reader, an exporter
// that discards (as a remote one does, from the process's point of view), a
// processor that counts what the instrumentation emits, and readers of the
// collected data points.
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';

/** A reader that exports nothing: the benchmark pulls with `collect()`. */
export class PullReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

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

const ARGCHECK_SCOPE = '@argcheck/instrumentation';

/** The argcheck scope's metrics (and the benchmarks' own `bench` meter) in a collection. */
function argcheckMetrics(resourceMetrics: ResourceMetrics) {
  return resourceMetrics.scopeMetrics
    .filter((s) => s.scope.name === ARGCHECK_SCOPE || s.scope.name === 'bench')
    .flatMap((s) => s.metrics);
}

/** Sum of the data point values of one counter. */
export function sumOf(resourceMetrics: ResourceMetrics, name: string): number {
  const metric = argcheckMetrics(resourceMetrics).find((m) => m.descriptor.name === name);
  let total = 0;
  for (const p of metric?.dataPoints ?? []) if (typeof p.value === 'number') total += p.value;
  return total;
}

/** Sum of one counter's data points by the value of one attribute. */
export function sumBy(
  resourceMetrics: ResourceMetrics,
  name: string,
  attribute: string,
): Record<string, number> {
  const metric = argcheckMetrics(resourceMetrics).find((m) => m.descriptor.name === name);
  const out: Record<string, number> = {};
  for (const p of metric?.dataPoints ?? []) {
    const key = String(p.attributes[attribute]);
    if (typeof p.value === 'number') out[key] = (out[key] ?? 0) + p.value;
  }
  return out;
}

/** The distinct values one attribute takes on one instrument's data points. */
export function distinctValues(
  resourceMetrics: ResourceMetrics,
  name: string,
  attribute: string,
): Set<string> {
  const metric = argcheckMetrics(resourceMetrics).find((m) => m.descriptor.name === name);
  return new Set((metric?.dataPoints ?? []).map((p) => String(p.attributes[attribute])));
}

/** Number of data points (series) per argcheck instrument. */
export function seriesCounts(resourceMetrics: ResourceMetrics): Record<string, number> {
  return Object.fromEntries(
    argcheckMetrics(resourceMetrics)
      .filter((m) => m.descriptor.name.startsWith('tool_argument_'))
      .map((m) => [m.descriptor.name, m.dataPoints.length] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}
