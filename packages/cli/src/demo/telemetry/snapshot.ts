import { DataPointType, type ResourceMetrics } from '@opentelemetry/sdk-metrics';

/** One series at one collection: name, attributes, and a number (a histogram gives its count). */
export interface SeriesPoint {
  name: string;
  kind: 'counter' | 'gauge' | 'histogram';
  attributes: Readonly<Record<string, string>>;
  value: number;
}

export interface Snapshot {
  /** Milliseconds, on the scenario clock. */
  at: number;
  points: readonly SeriesPoint[];
}

/** Flattens one collection into series points; attribute values become strings. */
export function toSnapshot(at: number, collected: ResourceMetrics): Snapshot {
  const points: SeriesPoint[] = [];
  for (const scope of collected.scopeMetrics) {
    for (const metric of scope.metrics) {
      const kind =
        metric.dataPointType === DataPointType.SUM
          ? 'counter'
          : metric.dataPointType === DataPointType.GAUGE
            ? 'gauge'
            : 'histogram';
      for (const point of metric.dataPoints) {
        const attributes: Record<string, string> = {};
        for (const [key, value] of Object.entries(point.attributes))
          attributes[key] = String(value);
        const value = typeof point.value === 'number' ? point.value : point.value.count;
        points.push({ name: metric.descriptor.name, kind, attributes, value });
      }
    }
  }
  return { at, points };
}

/** Sum of the series of `name` whose attributes include every pair of `match`. */
export function sumOf(
  snapshot: Snapshot | undefined,
  name: string,
  match: Readonly<Record<string, string>> = {},
): number {
  if (!snapshot) return 0;
  let sum = 0;
  for (const point of snapshot.points) {
    if (point.name !== name) continue;
    if (Object.entries(match).every(([key, value]) => point.attributes[key] === value)) {
      sum += point.value;
    }
  }
  return sum;
}
