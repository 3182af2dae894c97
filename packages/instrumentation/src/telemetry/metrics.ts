import type {
  Attributes,
  BatchObservableCallback,
  DiagLogger,
  Histogram,
  Meter,
  Observable,
  ObservableCounter,
  ObservableGauge,
} from '@opentelemetry/api';
import type { ValueSetEvent, ValueSetStatus } from '@argcheck/core';
import { SLOT_RANGES } from './series.js';
import type { SeriesRegistry } from './series.js';
import {
  ATTR_OUTCOME,
  ATTR_SET,
  ATTR_SOURCE,
  FETCH_OUTCOME_VALUES,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../semconv.js';
import { PACKAGE_VERSION } from '../version.js';
import { safeName } from './safe-name.js';

/** The instruments on one meter. Replaced when a new meter provider is set. */
export interface Metrics {
  /** Record a value-set fetch's duration (from the provider's `onEvent`). Never throws. */
  fetched(event: ValueSetEvent): void;
  /** Stop reporting through this meter. */
  dispose(): void;
}

export interface MetricSources {
  registry: SeriesRegistry;
  /** Read at collection time. */
  statuses: () => readonly ValueSetStatus[];
  /** Called first at each collection: counts due by time (repairs abandoned) are made. */
  beforeCollect?: () => void;
}

const FETCH_DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function fetchOutcome(event: ValueSetEvent): string | undefined {
  if (event.type === 'fetch_succeeded') return FETCH_OUTCOME_VALUES.SUCCESS;
  if (event.type === 'fetch_failed') return event.reason;
  return undefined;
}

/** The instruments of one meter. */
interface Instruments {
  readonly perArgument: readonly [ObservableCounter, readonly [number, number]][];
  readonly repairStarted: ObservableCounter;
  readonly calls: ObservableCounter;
  readonly fetches: ObservableCounter;
  readonly setChanges: ObservableCounter;
  readonly age: ObservableGauge;
  readonly size: ObservableGauge;
  readonly fetchDuration: Histogram;
  readonly observables: readonly Observable[];
}

/** Where one collection's observations go. */
interface Sink {
  count(instrument: ObservableCounter, value: number, attributes: Attributes): void;
  gauge(instrument: ObservableGauge, value: number, attributes: Attributes): void;
}

/** Everything reporting through one meter, read by one batch callback. */
interface Collection {
  readonly instruments: Instruments;
  readonly sources: Set<MetricSources>;
  readonly collect: BatchObservableCallback;
}

/**
 * One collection per meter for the whole process: two instrumentations on one
 * meter (two instances, or the CommonJS and ESM builds of this package both
 * loaded) report through one callback that adds their counts up. The SDK keeps
 * one observation per attribute set of an observable instrument in a
 * collection, the last; two callbacks reporting the same series would
 * overwrite each other, and since every series is reported from start-up at
 * zero, an instance that never counted would zero another's counts. Keyed by
 * this package's version, so that another version keeps to its own meter
 * (whose scope version differs anyway).
 */
const COLLECTIONS_KEY = Symbol.for(`argcheck.instrumentation.metrics@${PACKAGE_VERSION}`);
const collections: WeakMap<Meter, Collection> = ((globalThis as Record<symbol, unknown>)[
  COLLECTIONS_KEY
] ??= new WeakMap<Meter, Collection>()) as WeakMap<Meter, Collection>;

function createInstruments(meter: Meter): Instruments {
  const counter = (name: string, description: string, unit: string): ObservableCounter =>
    meter.createObservableCounter(name, { description, unit });
  const valueCheck = counter(
    METRIC_TOOL_ARGUMENT_VALUE_CHECK,
    'Checked tool-call argument values, by whether they are members of their value set',
    '{check}',
  );
  const mismatch = counter(
    METRIC_TOOL_ARGUMENT_MISMATCH,
    'Checked argument values that are not members, by the shape of the mismatch',
    '{check}',
  );
  const unavailable = counter(
    METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
    'Argument values let through unchecked because their value set could not be used',
    '{check}',
  );
  const repairStarted = counter(
    METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
    'Tool calls rejected with a repair message instead of being made',
    '{call}',
  );
  const rewritten = counter(
    METRIC_TOOL_ARGUMENT_REWRITTEN,
    'Tool calls made with an argument rewritten to the member it was a case or format variant of',
    '{call}',
  );
  const calls = counter(
    METRIC_TOOL_ARGUMENT_CALL,
    'Tool calls an integration saw, by whether any argument was checked (coverage)',
    '{call}',
  );
  const repairOutcome = counter(
    METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME,
    "Rejected tool-call arguments, by what the model's next call of the tool did with them",
    '{call}',
  );
  const setChanges = counter(
    METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE,
    'Members added to or removed from a value set by a refresh from its owner',
    '{value}',
  );
  const age: ObservableGauge = meter.createObservableGauge(METRIC_TOOL_ARGUMENT_VALUE_SET_AGE, {
    description: 'Time since the value set being served was fetched from its owner',
    unit: 's',
  });
  const size: ObservableGauge = meter.createObservableGauge(METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE, {
    description: 'Members in the value set being served (0 when none is)',
    unit: '{value}',
  });
  const fetches = counter(
    METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
    'Value-set fetches from their owners, by outcome',
    '{fetch}',
  );
  const fetchDuration: Histogram = meter.createHistogram(
    METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
    {
      description: 'Duration of value-set fetches from their owners',
      unit: 's',
      advice: { explicitBucketBoundaries: FETCH_DURATION_BUCKETS_S },
    },
  );
  return {
    perArgument: [
      [valueCheck, SLOT_RANGES[METRIC_TOOL_ARGUMENT_VALUE_CHECK]],
      [mismatch, SLOT_RANGES[METRIC_TOOL_ARGUMENT_MISMATCH]],
      [unavailable, SLOT_RANGES[METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE]],
      [rewritten, SLOT_RANGES[METRIC_TOOL_ARGUMENT_REWRITTEN]],
      [repairOutcome, SLOT_RANGES[METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME]],
    ],
    repairStarted,
    calls,
    fetches,
    setChanges,
    age,
    size,
    fetchDuration,
    observables: [
      valueCheck,
      mismatch,
      unavailable,
      repairStarted,
      rewritten,
      calls,
      fetches,
      age,
      size,
      repairOutcome,
      setChanges,
    ],
  };
}

/** One source's series into `sink`. */
function report(instruments: Instruments, sources: MetricSources, sink: Sink): void {
  sources.beforeCollect?.();
  for (const series of sources.registry.arguments) {
    const { counts, attributes } = series;
    for (const [instrument, [from, to]] of instruments.perArgument) {
      for (let slot = from; slot < to; slot++) {
        sink.count(instrument, counts[slot] as number, attributes[slot] as Attributes);
      }
    }
  }
  for (const tool of sources.registry.tools) {
    sink.count(instruments.repairStarted, tool.repairStarted, tool.attributes);
  }
  for (const call of sources.registry.calls) {
    for (let i = 0; i < call.counts.length; i++) {
      sink.count(instruments.calls, call.counts[i] as number, call.attributes[i] as Attributes);
    }
  }
  for (const set of sources.registry.sets) {
    for (let i = 0; i < set.fetches.length; i++) {
      sink.count(instruments.fetches, set.fetches[i] as number, set.attributes[i] as Attributes);
    }
    for (let i = 0; i < set.changes.length; i++) {
      const attributes = set.changeAttributes[i] as Attributes;
      sink.count(instruments.setChanges, set.changes[i] as number, attributes);
    }
  }
  for (const status of sources.statuses()) {
    const attributes = { [ATTR_SET]: safeName(status.name), [ATTR_SOURCE]: status.source };
    sink.gauge(instruments.size, status.size, attributes);
    if (status.ageSeconds !== undefined) sink.gauge(instruments.age, status.ageSeconds, attributes);
  }
}

function collectionFor(meter: Meter, diag: DiagLogger): Collection {
  const existing = collections.get(meter);
  if (existing !== undefined) return existing;
  const instruments = createInstruments(meter);
  const sources = new Set<MetricSources>();
  const collect: BatchObservableCallback = (result) => {
    try {
      if (sources.size === 1) {
        // The usual case: observed as read, nothing to add up.
        const direct: Sink = {
          count: (instrument, value, attributes) => result.observe(instrument, value, attributes),
          gauge: (instrument, value, attributes) => result.observe(instrument, value, attributes),
        };
        for (const source of sources) report(instruments, source, direct);
        return;
      }
      // Series by instrument and attribute set. Every instance builds the
      // attributes of a series the same way, keys in the same order.
      type Sums = Map<string, { value: number; attributes: Attributes }>;
      const sums = new Map<ObservableCounter, Sums>();
      const summing: Sink = {
        count(instrument, value, attributes) {
          let byAttributes = sums.get(instrument);
          if (byAttributes === undefined) {
            byAttributes = new Map() as Sums;
            sums.set(instrument, byAttributes);
          }
          const key = JSON.stringify(attributes);
          const sum = byAttributes.get(key);
          if (sum === undefined) byAttributes.set(key, { value, attributes });
          else sum.value += value;
        },
        // A set served by two instances has one size and one age: the last read stands.
        gauge: (instrument, value, attributes) => result.observe(instrument, value, attributes),
      };
      for (const source of sources) report(instruments, source, summing);
      for (const [instrument, byAttributes] of sums) {
        for (const { value, attributes } of byAttributes.values()) {
          result.observe(instrument, value, attributes);
        }
      }
    } catch (error) {
      diag.debug('collecting argcheck metrics failed', error);
    }
  };
  const collection: Collection = { instruments, sources, collect };
  meter.addBatchObservableCallback(collect, [...instruments.observables]);
  collections.set(meter, collection);
  return collection;
}

/**
 * Counts live in the series registry's slots; they reach the meter through
 * observable counters read in one batch callback at collection time, so a
 * check never touches the SDK. Every series the registry holds is reported,
 * at zero until it counts something; the counts of every instrumentation on
 * the same meter are added up (see `collections`). Fetch durations are rare
 * and go to an ordinary histogram.
 */
export function createMetrics(meter: Meter, sources: MetricSources, diag: DiagLogger): Metrics {
  const collection = collectionFor(meter, diag);
  collection.sources.add(sources);
  const { fetchDuration } = collection.instruments;
  return {
    fetched(event) {
      const outcome = fetchOutcome(event);
      if (outcome === undefined || !('durationMs' in event)) return;
      try {
        const attributes = {
          [ATTR_SET]: safeName(event.set),
          [ATTR_SOURCE]: event.source,
          [ATTR_OUTCOME]: outcome,
        };
        fetchDuration.record(event.durationMs / 1000, attributes);
      } catch (error) {
        diag.debug('recording a value-set fetch failed', error);
      }
    },
    dispose() {
      collection.sources.delete(sources);
      if (collection.sources.size > 0 || collections.get(meter) !== collection) return;
      collections.delete(meter);
      try {
        meter.removeBatchObservableCallback(collection.collect, [
          ...collection.instruments.observables,
        ]);
      } catch (error) {
        diag.debug('removing the argcheck metrics callback failed', error);
      }
    },
  };
}
