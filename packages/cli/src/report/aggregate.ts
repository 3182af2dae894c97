import type { ArgumentReport, ShapeRow, ValueRow } from '../types.js';
import type { CheckRecord } from './check-record.js';

export interface AggregatorOptions {
  /** Distinct values kept per argument; later new values only count in `valuesOverCap`. */
  maxDistinctValues: number;
  /** Distinct tool/argument/set series kept; records of later series are only counted. */
  maxSeries: number;
  /** Longer values are cut to this many characters before they become a key. */
  maxValueLength: number;
}

interface ValueCounts {
  count: number;
  inSetCount: number;
  shape: string | undefined;
}

interface SeriesCounts {
  tool: string;
  argument: string;
  set: string;
  records: number;
  unchecked: number;
  outOfSet: number;
  outOfSetNormalised: number;
  values: Map<string, ValueCounts>;
  valuesOverCap: number;
  valuesNotCaptured: number;
  shapes: Map<string, number>;
}

/** Order of the DESIGN's partition; shapes it does not name sort after these. */
const SHAPE_ORDER = ['case', 'format', 'alias', 'near_miss', 'invented', 'not_string'];

export interface Aggregator {
  add(record: CheckRecord): void;
  readonly recordsOverSeriesCap: number;
  /** The per-argument figures, sorted by tool, argument, set; `top` value rows each. */
  summarise(top: number): ArgumentReport[];
}

/**
 * Counts check records in memory bounded by the caps alone, whatever the
 * input size: only counters and at most `maxDistinctValues` keys per series.
 */
export function createAggregator(options: AggregatorOptions): Aggregator {
  const series = new Map<string, SeriesCounts>();
  let recordsOverSeriesCap = 0;

  const seriesFor = (record: CheckRecord): SeriesCounts | undefined => {
    const key = JSON.stringify([record.tool, record.argument, record.set]);
    let counts = series.get(key);
    if (counts) return counts;
    if (series.size >= options.maxSeries) return undefined;
    counts = {
      tool: record.tool.slice(0, options.maxValueLength),
      argument: record.argument.slice(0, options.maxValueLength),
      set: record.set.slice(0, options.maxValueLength),
      records: 0,
      unchecked: 0,
      outOfSet: 0,
      outOfSetNormalised: 0,
      values: new Map(),
      valuesOverCap: 0,
      valuesNotCaptured: 0,
      shapes: new Map(),
    };
    series.set(key, counts);
    return counts;
  };

  const countValue = (counts: SeriesCounts, record: CheckRecord, inSet: boolean): void => {
    if (record.value === undefined) {
      counts.valuesNotCaptured += 1;
      return;
    }
    const value = record.value.slice(0, options.maxValueLength);
    let entry = counts.values.get(value);
    if (!entry) {
      if (counts.values.size >= options.maxDistinctValues) {
        counts.valuesOverCap += 1;
        return;
      }
      entry = { count: 0, inSetCount: 0, shape: undefined };
      counts.values.set(value, entry);
    }
    entry.count += 1;
    if (inSet) entry.inSetCount += 1;
    else entry.shape ??= record.shape;
  };

  return {
    add(record) {
      const counts = seriesFor(record);
      if (!counts) {
        recordsOverSeriesCap += 1;
        return;
      }
      if (record.inSet === undefined) {
        counts.unchecked += 1;
        return;
      }
      counts.records += 1;
      if (!record.inSet) {
        counts.outOfSet += 1;
        const shape = record.shape ?? 'unknown';
        counts.shapes.set(shape, (counts.shapes.get(shape) ?? 0) + 1);
      }
      // A record without in_set_normalised predates normalisation: it counts as raw.
      if (!(record.inSetNormalised ?? record.inSet)) counts.outOfSetNormalised += 1;
      countValue(counts, record, record.inSet);
    },
    get recordsOverSeriesCap() {
      return recordsOverSeriesCap;
    },
    summarise(top) {
      return [...series.values()].sort(compareSeries).map((counts) => summariseSeries(counts, top));
    },
  };
}

function compareSeries(a: SeriesCounts, b: SeriesCounts): number {
  return (
    compareText(a.tool, b.tool) || compareText(a.argument, b.argument) || compareText(a.set, b.set)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shapeRank(shape: string): number {
  const index = SHAPE_ORDER.indexOf(shape);
  return index === -1 ? SHAPE_ORDER.length : index;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

function summariseSeries(counts: SeriesCounts, top: number): ArgumentReport {
  const rows: ValueRow[] = [...counts.values]
    .map(([value, { count, inSetCount, shape }]) =>
      shape === undefined ? { value, count, inSetCount } : { value, count, inSetCount, shape },
    )
    .sort((a, b) => b.count - a.count || compareText(a.value, b.value));
  const shown = rows.slice(0, Math.max(0, top));
  const shapes: ShapeRow[] = [...counts.shapes]
    .sort(([a], [b]) => shapeRank(a) - shapeRank(b) || compareText(a, b))
    .map(([shape, count]) => ({
      shape,
      count,
      shareOfMismatches: ratio(count, counts.outOfSet),
      shareOfCalls: ratio(count, counts.records),
    }));
  const outOfSetRate = ratio(counts.outOfSet, counts.records);
  const normalisedRate = ratio(counts.outOfSetNormalised, counts.records);
  return {
    tool: counts.tool,
    argument: counts.argument,
    set: counts.set,
    records: counts.records,
    unchecked: counts.unchecked,
    outOfSet: counts.outOfSet,
    outOfSetNormalised: counts.outOfSetNormalised,
    outOfSetRate,
    normalisedRate,
    formattingTax: ratio(counts.outOfSet - counts.outOfSetNormalised, counts.records),
    distinctValues: rows.length,
    values: shown,
    valuesNotShown: rows.slice(shown.length).reduce((sum, row) => sum + row.count, 0),
    valuesOverCap: counts.valuesOverCap,
    valuesNotCaptured: counts.valuesNotCaptured,
    shapes,
  };
}
