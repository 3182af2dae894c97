/**
 * The instrument names of the telemetry contract (DESIGN.md, "Telemetry"),
 * as the demo reads them back from its own metric reader.
 */
export const VALUE_CHECK = 'tool_argument_value_check';
export const MISMATCH = 'tool_argument_mismatch';
export const CHECK_UNAVAILABLE = 'tool_argument_check_unavailable';
export const REPAIR_STARTED = 'tool_argument_repair_started';
export const REWRITTEN = 'tool_argument_rewritten';
export const VALUE_SET_AGE = 'tool_argument_value_set_age';
