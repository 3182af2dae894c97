/**
 * The instrument names of the telemetry contract, as the demo reads them back
 * from its own metric reader.
 */
export {
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE as CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH as MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED as REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN as REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK as VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE as VALUE_SET_AGE,
} from '@argcheck/instrumentation/semconv';
