/**
 * Reading what real OpenTelemetry SDK providers collected: a reader that
 * exports nothing (tests and benchmarks pull), argcheck's data points with
 * their whole attribute objects, and sums.
 */
import type { Attributes } from '@opentelemetry/api';
import { DataPointType, MetricReader } from '@opentelemetry/sdk-metrics';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';

/** argcheck's meter scope. */
export const ARGCHECK_SCOPE = '@argcheck/instrumentation';

/** A reader that exports nothing: pull with `collect()`. */
export class PullReader extends MetricReader {
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

/** One scope's data points by instrument name, plus each instrument's unit. */
export interface Collected {
  points: Record<string, Point[]>;
  units: Record<string, string>;
  /** Names of the monotonic counters. */
  counters: Set<string>;
}

/** What `reader` holds now, for the meter scope `scope`; collection errors throw. */
export async function collectPoints(
  reader: MetricReader,
  scope: string = ARGCHECK_SCOPE,
): Promise<Collected> {
  const { resourceMetrics, errors } = await reader.collect();
  if (errors.length > 0) throw new Error(`collection errors: ${errors.map(String).join('; ')}`);
  const points: Record<string, Point[]> = {};
  const units: Record<string, string> = {};
  const counters = new Set<string>();
  for (const scopeMetrics of resourceMetrics.scopeMetrics) {
    if (scopeMetrics.scope.name !== scope) continue;
    for (const metric of scopeMetrics.metrics) {
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

/** Points of one instrument, sorted by their attributes so whole lists compare. */
export function allPointsOf(collected: Collected, name: string): Point[] {
  return [...(collected.points[name] ?? [])].sort((a, b) =>
    JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
  );
}

/**
 * Like `allPointsOf`, without the counter series still at zero: argcheck
 * exports every series from the moment it can count, and most assertions are
 * about what was counted.
 */
export function pointsOf(collected: Collected, name: string): Point[] {
  const points = allPointsOf(collected, name);
  return collected.counters.has(name) ? points.filter((p) => p.value !== 0) : points;
}

/** The argcheck scope's metrics (and a benchmark's own `bench` meter) in a collection. */
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
