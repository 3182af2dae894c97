// An in-memory metrics pipeline, so the example can print and assert what
// argcheck counted. In production this is your OTLP exporter.
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { argcheckViews } from '@argcheck/instrumentation/views';

export function metricsPipeline() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader], views: argcheckViews() });
  return {
    meterProvider,
    /** Non-zero data points of one instrument, as `attributes -> value` lines. */
    async points(name) {
      await reader.forceFlush();
      const metrics =
        exporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
      const metric = metrics.find((m) => m.descriptor.name === name);
      return (metric?.dataPoints ?? [])
        .filter((p) => p.value !== 0)
        .map((p) => `${JSON.stringify(p.attributes)} ${p.value}`)
        .sort();
    },
    shutdown: () => meterProvider.shutdown(),
  };
}
