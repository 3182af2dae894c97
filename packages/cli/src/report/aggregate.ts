import { MISMATCH_SHAPES } from '@argcheck/core';
import type { ArgumentReport, ShapeRow, ValueRow } from '../types.js';
import type { CheckRecord } from './check-record.js';

export interface AggregatorOptions {
  /** Distinct values kept per argument; later new values only count in `valuesOverCap`. */
  maxDistinctValues: number;
  /** Distinct tool/argument/set series kept; records of later series are only counted. */
  maxSeries: number;
  /** Longer values are cut to this many characters before they become a key. */
  maxValueLength: number;
  /**
   * Distinct values kept in all series together; later new values only count
   * in `valuesOverCap`. Without it the per-series caps alone allow
   * `maxSeries × maxDistinctValues` keys: gigabytes.
   * @default 100_000
   */
  maxValuesInAll?: number;
  /** An attribution attribute (`gen_ai.request.model`, …) that splits each argument's figures by its value. */
  by?: string | undefined;
}

/** The value a record counts under with `by`, when it carries none. */
export const NOT_ATTRIBUTED = '(none)';

/** A value's key: its kind, then its text (`value-text.ts` logs a non-string as JSON text). */
const STRING_KEY = 's';
const JSON_KEY = 'j';
const NOT_STRING = 'not_string';

interface ValueCounts {
  count: number;
  inSetCount: number;
  shape: string | undefined;
}

interface SeriesCounts {
  tool: string;
  argument: string;
  set: string;
  /** The `by` attribute's value. */
  byValue: string | undefined;
  records: number;
  unchecked: number;
  outOfSet: number;
  outOfSetNormalised: number;
  values: Map<string, ValueCounts>;
  valuesOverCap: number;
  valuesNotCaptured: number;
  shapes: Map<string, number>;
}

/** Order of the partition; shapes it does not name sort after these. */
const SHAPE_ORDER: readonly string[] = MISMATCH_SHAPES;

/**
 * Distinct shape names kept per series: the partition has six, and a file
 * naming more is not the instrumentation's; later names count as `other`.
 */
const MAX_SHAPES = 16;
const OTHER_SHAPE = 'other';
/** Shape names are short identifiers (`near_miss`); a longer one is cut to this. */
const MAX_SHAPE_LENGTH = 64;

/**
 * A string of our own holding the first `maxLength` code units of `text`.
 * A slice shares the memory of the string it was cut from (and so may what
 * JSON.parse returns, with its line): a kept key must not keep a 200 KB value,
 * or the line it came in, alive. UTF-16 keeps lone surrogates as they are.
 */
function ownCut(text: string, maxLength: number): string {
  return Buffer.from(text.slice(0, maxLength), 'utf16le').toString('utf16le');
}

export interface Aggregator {
  add(record: CheckRecord): void;
  readonly recordsOverSeriesCap: number;
  /**
   * The per-argument figures, sorted by tool, argument, set; `top` value rows
   * each, out-of-set values first, or (`mismatchesOnly`) out-of-set values only.
   */
  summarise(top: number, mismatchesOnly?: boolean): ArgumentReport[];
}

/**
 * Counts check records in memory bounded by the caps alone, whatever the
 * input size: only counters, at most `maxDistinctValues` keys per series and
 * `maxValuesInAll` in all, each cut to `maxValueLength` and copied.
 */
export function createAggregator(options: AggregatorOptions): Aggregator {
  const series = new Map<string, SeriesCounts>();
  let recordsOverSeriesCap = 0;
  const maxValuesInAll = options.maxValuesInAll ?? 100_000;
  let valuesKept = 0;

  const cut = (text: string): string => text.slice(0, options.maxValueLength);
  const own = (text: string): string => ownCut(text, options.maxValueLength);

  const seriesFor = (record: CheckRecord): SeriesCounts | undefined => {
    const by =
      options.by === undefined ? undefined : (record.attribution?.[options.by] ?? NOT_ATTRIBUTED);
    // Names are cut before they key a series, like values: names that differ
    // only after the cut share a series.
    const key = (tool: string, argument: string, set: string, byValue: string | undefined) =>
      JSON.stringify(
        byValue === undefined ? [tool, argument, set] : [tool, argument, set, byValue],
      );
    const found = series.get(
      key(cut(record.tool), cut(record.argument), cut(record.set), by && cut(by)),
    );
    if (found) return found;
    if (series.size >= options.maxSeries) return undefined;
    const counts: SeriesCounts = {
      tool: own(record.tool),
      argument: own(record.argument),
      set: own(record.set),
      byValue: by && own(by),
      records: 0,
      unchecked: 0,
      outOfSet: 0,
      outOfSetNormalised: 0,
      values: new Map(),
      valuesOverCap: 0,
      valuesNotCaptured: 0,
      shapes: new Map(),
    };
    series.set(key(counts.tool, counts.argument, counts.set, counts.byValue), counts);
    return counts;
  };

  /** The shape key a mismatch counts under: a kept name, or `other` once MAX_SHAPES are kept. */
  const shapeKey = (counts: SeriesCounts, shape: string): string => {
    const name = shape.slice(0, MAX_SHAPE_LENGTH);
    if (counts.shapes.has(name)) return name;
    if (counts.shapes.size >= MAX_SHAPES) return OTHER_SHAPE;
    const kept = ownCut(name, MAX_SHAPE_LENGTH);
    counts.shapes.set(kept, 0);
    return kept;
  };

  const countValue = (
    counts: SeriesCounts,
    value: string | undefined,
    inSet: boolean,
    shape?: string,
  ): void => {
    if (value === undefined) {
      counts.valuesNotCaptured += 1;
      return;
    }
    // A number 42 and the string "42" are logged alike; the shape tells them apart.
    const kind = shape === NOT_STRING ? JSON_KEY : STRING_KEY;
    let entry = counts.values.get(kind + cut(value));
    if (!entry) {
      if (counts.values.size >= options.maxDistinctValues || valuesKept >= maxValuesInAll) {
        counts.valuesOverCap += 1;
        return;
      }
      entry = { count: 0, inSetCount: 0, shape: undefined };
      counts.values.set(kind + own(value), entry);
      valuesKept += 1;
    }
    entry.count += 1;
    if (inSet) entry.inSetCount += 1;
    else entry.shape ??= shape;
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
      // A record without in_set_normalised predates normalisation: it counts as raw.
      if (!(record.inSetNormalised ?? record.inSet)) counts.outOfSetNormalised += 1;
      if (record.inSet) {
        countValue(counts, record.value, true);
        return;
      }
      counts.outOfSet += 1;
      const shape = shapeKey(counts, record.shape ?? 'unknown');
      counts.shapes.set(shape, (counts.shapes.get(shape) ?? 0) + 1);
      countValue(counts, record.value, false, record.shape === undefined ? undefined : shape);
    },
    get recordsOverSeriesCap() {
      return recordsOverSeriesCap;
    },
    summarise(top, mismatchesOnly = false) {
      return [...series.values()]
        .sort(compareSeries)
        .map((counts) => summariseSeries(counts, top, options.by, mismatchesOnly));
    },
  };
}

function compareSeries(a: SeriesCounts, b: SeriesCounts): number {
  return (
    compareText(a.tool, b.tool) ||
    compareText(a.argument, b.argument) ||
    compareText(a.set, b.set) ||
    compareText(a.byValue ?? '', b.byValue ?? '')
  );
}

/** Records of the kept values that are not among the rows shown. */
function notShown(rows: readonly ValueRow[], shown: readonly ValueRow[]): number {
  const all = rows.reduce((sum, row) => sum + row.count, 0);
  return all - shown.reduce((sum, row) => sum + row.count, 0);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shapeRank(shape: string): number {
  const index = SHAPE_ORDER.indexOf(shape);
  return index === -1 ? SHAPE_ORDER.length : index;
}

const ratio = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** A value that was out of the set at least once: what one reads the table for. */
const outOfSetAtAll = (row: ValueRow): boolean => row.count > row.inSetCount;

/**
 * Out-of-set values first (members would crowd them out), each group by
 * count, then by value, a string before a non-string of the same text.
 */
function compareRows(a: ValueRow, b: ValueRow): number {
  return (
    Number(outOfSetAtAll(b)) - Number(outOfSetAtAll(a)) ||
    b.count - a.count ||
    compareText(a.value, b.value) ||
    Number(a.shape === NOT_STRING) - Number(b.shape === NOT_STRING)
  );
}

function summariseSeries(
  counts: SeriesCounts,
  top: number,
  by: string | undefined,
  mismatchesOnly: boolean,
): ArgumentReport {
  const rows: ValueRow[] = [...counts.values]
    .map(([key, { count, inSetCount, shape }]) => {
      const value = key.slice(1);
      return shape === undefined
        ? { value, count, inSetCount }
        : { value, count, inSetCount, shape };
    })
    .sort(compareRows);
  const listed = mismatchesOnly ? rows.filter(outOfSetAtAll) : rows;
  const shown = listed.slice(0, Math.max(0, top));
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
    ...(by === undefined ? {} : { by: { attribute: by, value: counts.byValue ?? NOT_ATTRIBUTED } }),
    records: counts.records,
    unchecked: counts.unchecked,
    outOfSet: counts.outOfSet,
    outOfSetNormalised: counts.outOfSetNormalised,
    outOfSetRate,
    normalisedRate,
    formattingTax: ratio(counts.outOfSet - counts.outOfSetNormalised, counts.records),
    distinctValues: rows.length,
    values: shown,
    valuesNotShown: notShown(rows, shown),
    valuesOverCap: counts.valuesOverCap,
    valuesNotCaptured: counts.valuesNotCaptured,
    shapes,
  };
}
