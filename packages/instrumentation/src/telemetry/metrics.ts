import type {
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
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../semconv.js';

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
}

const FETCH_DURATION_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function fetchOutcome(event: ValueSetEvent): string | undefined {
  if (event.type === 'fetch_succeeded') return FETCH_OUTCOME_VALUES.SUCCESS;
  if (event.type === 'fetch_failed') return event.reason;
  return undefined;
}

/**
 * Counts live in the series registry's slots; they reach the meter through
 * observable counters read in one batch callback at collection time, so a
 * check never touches the SDK. Every series the registry holds is reported,
 * at zero until it counts something. Fetch durations are rare and go to an
 * ordinary histogram.
 */
export function createMetrics(meter: Meter, sources: MetricSources, diag: DiagLogger): Metrics {
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

  const perArgument: [ObservableCounter, readonly [number, number]][] = [
    [valueCheck, SLOT_RANGES[METRIC_TOOL_ARGUMENT_VALUE_CHECK]],
    [mismatch, SLOT_RANGES[METRIC_TOOL_ARGUMENT_MISMATCH]],
    [unavailable, SLOT_RANGES[METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE]],
    [rewritten, SLOT_RANGES[METRIC_TOOL_ARGUMENT_REWRITTEN]],
  ];

  const collect: BatchObservableCallback = (result) => {
    try {
      for (const series of sources.registry.arguments) {
        const { counts, attributes } = series;
        for (const [instrument, [from, to]] of perArgument) {
          for (let slot = from; slot < to; slot++) {
            result.observe(instrument, counts[slot] as number, attributes[slot]);
          }
        }
      }
      for (const tool of sources.registry.tools) {
        result.observe(repairStarted, tool.repairStarted, tool.attributes);
      }
      for (const set of sources.registry.sets) {
        for (let i = 0; i < set.fetches.length; i++) {
          result.observe(fetches, set.fetches[i] as number, set.attributes[i]);
        }
      }
      for (const status of sources.statuses()) {
        const attributes = { [ATTR_SET]: status.name, [ATTR_SOURCE]: status.source };
        result.observe(size, status.size, attributes);
        if (status.ageSeconds !== undefined) result.observe(age, status.ageSeconds, attributes);
      }
    } catch (error) {
      diag.debug('collecting argcheck metrics failed', error);
    }
  };
  const observables: Observable[] = [
    valueCheck,
    mismatch,
    unavailable,
    repairStarted,
    rewritten,
    fetches,
    age,
    size,
  ];
  meter.addBatchObservableCallback(collect, observables);

  return {
    fetched(event) {
      const outcome = fetchOutcome(event);
      if (outcome === undefined || !('durationMs' in event)) return;
      try {
        const attributes = {
          [ATTR_SET]: event.set,
          [ATTR_SOURCE]: event.source,
          [ATTR_OUTCOME]: outcome,
        };
        fetchDuration.record(event.durationMs / 1000, attributes);
      } catch (error) {
        diag.debug('recording a value-set fetch failed', error);
      }
    },
    dispose() {
      try {
        meter.removeBatchObservableCallback(collect, observables);
      } catch (error) {
        diag.debug('removing the argcheck metrics callback failed', error);
      }
    },
  };
}
