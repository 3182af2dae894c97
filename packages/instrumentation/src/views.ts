// A separate entry point (`@argcheck/instrumentation/views`): it loads
// @opentelemetry/sdk-metrics, which users of the main entry need not install.
import { ArgcheckConfigError, ErrorCode } from '@argcheck/core';
import { createAllowListAttributesProcessor } from '@opentelemetry/sdk-metrics';
import type { ViewOptions } from '@opentelemetry/sdk-metrics';
import {
  ATTRIBUTION_ATTRIBUTES,
  COVERAGE_VALUES,
  FETCH_OUTCOME_VALUES,
  INTEGRATION_VALUES,
  INSTRUMENT_ATTRIBUTES,
  REASON_VALUES,
  REPAIR_OUTCOME_VALUES,
  SET_CHANGE_VALUES,
  SHAPE_VALUES,
} from './semconv.js';
import { PACKAGE_NAME } from './version.js';

export interface ArgcheckViewsOptions {
  /**
   * Checked arguments to allow series for: configured ones plus those derived
   * from tool catalogs (`mcp.maxCheckedArguments`), in arguments. Each
   * instrument's cardinality limit is this times its series per argument.
   * @default 1_000
   */
  maxArguments?: number;
  /**
   * Attributions (combinations of model, provider, agent, prompt version and
   * tool definition) to allow series for per argument on the call-level
   * instruments: 1 in steady state, 2 while a canary or a rolling deploy runs.
   * @default 4
   */
  maxAttributions?: number;
}

/** Series one checked argument (or its value set) can have on each instrument. */
const FETCH_OUTCOMES = Object.keys(FETCH_OUTCOME_VALUES).length;
const SERIES_PER_ARGUMENT: Readonly<Record<keyof typeof INSTRUMENT_ATTRIBUTES, number>> = {
  // in_set="true" with in_set_normalised="false" cannot happen.
  tool_argument_value_check: 3,
  tool_argument_mismatch: SHAPE_VALUES.length,
  tool_argument_check_unavailable: REASON_VALUES.length,
  tool_argument_repair_started: 1,
  tool_argument_rewritten: 1,
  // Per tool rather than per argument: an integration and a coverage each.
  tool_argument_call: INTEGRATION_VALUES.length * COVERAGE_VALUES.length,
  tool_argument_value_set_fetch: FETCH_OUTCOMES,
  tool_argument_value_set_fetch_duration: FETCH_OUTCOMES,
  tool_argument_value_set_age: 1,
  tool_argument_value_set_size: 1,
  tool_argument_repair_outcome: REPAIR_OUTCOME_VALUES.length,
  tool_argument_value_set_change: SET_CHANGE_VALUES.length,
};

/** Whether an instrument is call-level: its series carry the attribution attributes. */
const callLevel = (keys: readonly string[]): boolean => keys[0] === 'tool';

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      `argcheckViews: ${name} must be an integer >= 1, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/**
 * Views for your `MeterProvider`: each argcheck instrument keeps only its own
 * attribute keys and has a cardinality limit, a second wall behind the bound
 * the instrumentation keeps itself.
 */
export function argcheckViews(options: ArgcheckViewsOptions = {}): ViewOptions[] {
  const maxArguments = positive('maxArguments', options.maxArguments ?? 1_000);
  const maxAttributions = positive('maxAttributions', options.maxAttributions ?? 4);
  return Object.entries(INSTRUMENT_ATTRIBUTES).map(([name, keys]) => {
    const attributed = callLevel(keys);
    return {
      meterName: PACKAGE_NAME,
      instrumentName: name,
      attributesProcessors: [
        createAllowListAttributesProcessor(
          attributed ? [...keys, ...ATTRIBUTION_ATTRIBUTES] : [...keys],
        ),
      ],
      aggregationCardinalityLimit:
        SERIES_PER_ARGUMENT[name as keyof typeof INSTRUMENT_ATTRIBUTES] *
        maxArguments *
        (attributed ? maxAttributions : 1),
    };
  });
}
