/**
 * Names on the wire: instruments, attribute keys and the closed sets of
 * attribute values. Users build dashboards and alerts on these; they are part
 * of the public contract (docs/telemetry.md), exported as
 * `@argcheck/instrumentation/semconv`.
 */
import { MISMATCH_SHAPES, UNAVAILABLE_REASONS, type FetchFailureReason } from '@argcheck/core';

export const METRIC_TOOL_ARGUMENT_VALUE_CHECK = 'tool_argument_value_check' as const;
export const METRIC_TOOL_ARGUMENT_MISMATCH = 'tool_argument_mismatch' as const;
export const METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE = 'tool_argument_check_unavailable' as const;
export const METRIC_TOOL_ARGUMENT_REPAIR_STARTED = 'tool_argument_repair_started' as const;
export const METRIC_TOOL_ARGUMENT_REWRITTEN = 'tool_argument_rewritten' as const;
/** Reject mode: what the model's retry of a rejected call did (`REPAIR_OUTCOME_VALUES`). */
export const METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME = 'tool_argument_repair_outcome' as const;
export const METRIC_TOOL_ARGUMENT_CALL = 'tool_argument_call' as const;
export const METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH = 'tool_argument_value_set_fetch' as const;
export const METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION =
  'tool_argument_value_set_fetch_duration' as const;
export const METRIC_TOOL_ARGUMENT_VALUE_SET_AGE = 'tool_argument_value_set_age' as const;
export const METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE = 'tool_argument_value_set_size' as const;
/** Members added to and removed from a value set at a refresh (`change`). */
export const METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE = 'tool_argument_value_set_change' as const;

/** Event name of the sampled log record, one per sampled checked argument value. */
export const EVENT_TOOL_ARGUMENT_VALUE_CHECK = 'tool_argument_value_check' as const;
/**
 * Event name of the log record written when a `tool_definition` value is
 * first seen: which description and input schema the hash stands for.
 */
export const EVENT_TOOL_ARGUMENT_TOOL_DEFINITION = 'tool_argument_tool_definition' as const;

export const ATTR_TOOL = 'tool' as const;
export const ATTR_ARGUMENT = 'argument' as const;
export const ATTR_SET = 'set' as const;
export const ATTR_IN_SET = 'in_set' as const;
export const ATTR_IN_SET_NORMALISED = 'in_set_normalised' as const;
export const ATTR_SHAPE = 'shape' as const;
export const ATTR_REASON = 'reason' as const;
export const ATTR_SOURCE = 'source' as const;
export const ATTR_OUTCOME = 'outcome' as const;
/** `tool_argument_call`: which integration saw the call. */
export const ATTR_INTEGRATION = 'integration' as const;
/** `tool_argument_call`: what the check could do with the call. */
export const ATTR_COVERAGE = 'coverage' as const;
/** `tool_argument_repair_outcome`: `REPAIR_OUTCOME_VALUES`. */
export const ATTR_REPAIR_OUTCOME = 'outcome' as const;
/** `tool_argument_value_set_change`: `added` or `removed`. */
export const ATTR_CHANGE = 'change' as const;
/**
 * Attribution (docs/decisions/0027-attribution.md), on the call-level
 * instruments and on log records: the GenAI semantic conventions' names.
 */
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model' as const;
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name' as const;
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name' as const;
export const ATTR_GEN_AI_PROMPT_VERSION = 'gen_ai.prompt.version' as const;
/** A short hash of the tool's description and input schema as the model saw them. */
export const ATTR_TOOL_DEFINITION = 'tool_definition' as const;
/** Log records of `EVENT_TOOL_ARGUMENT_TOOL_DEFINITION` only: the text a hash stands for. */
export const ATTR_TOOL_DESCRIPTION = 'tool_description' as const;
export const ATTR_TOOL_INPUT_SCHEMA = 'tool_input_schema' as const;
/** An attribution value past its attribute's first `attribution.maxValues`. */
export const ATTRIBUTION_OTHER = '_other' as const;
/** Log records only, never metrics: the emitted value, as text. */
export const ATTR_VALUE = 'value' as const;
export const ATTR_VALUE_TRUNCATED = 'value_truncated' as const;
export const ATTR_GEN_AI_CONVERSATION_ID = 'gen_ai.conversation.id' as const;
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id' as const;
/** Spans only (`spanOutcome`): how the tool call ended, on a rejected call. */
export const ATTR_ERROR_TYPE = 'error.type' as const;
/** `error.type` of a rejected call: the tool did not run, the model got the repair message. */
export const ERROR_TYPE_REJECTED = 'tool_argument_rejected' as const;

/** `shape` values (`tool_argument_mismatch`, log records): the core's mismatch shapes. */
export const SHAPE_VALUES = MISMATCH_SHAPES;
/** `reason` values (`tool_argument_check_unavailable`): the core's unavailable reasons. */
export const REASON_VALUES = UNAVAILABLE_REASONS;

/**
 * `integration` values (`tool_argument_call`): where argcheck saw the call.
 * `dispatcher` is `inst.check`; `mcp` an MCP client (whichever framework
 * made the call, when the framework's own tool layer did not see it);
 * `claude_agent` the Claude Agent SDK's `PreToolUse` hook, for the MCP tools
 * its agents call (in-process and external servers alike).
 */
export const INTEGRATION_VALUES = [
  'dispatcher',
  'mcp',
  'ai_sdk',
  'openai_agents',
  'langchain',
  'mastra',
  'claude_agent',
] as const;
export type IntegrationName = (typeof INTEGRATION_VALUES)[number];

/**
 * `coverage` values (`tool_argument_call`), one per call:
 * `checked` — at least one argument was checked against its set;
 * `unavailable` — arguments were in scope, but no set could be used (failing open);
 * `none` — the call carried no argument argcheck checks;
 * `unlisted` — an MCP call made before its server's tools were listed, so the
 * sets derived from them could not apply yet.
 */
export const COVERAGE_VALUES = ['checked', 'unavailable', 'none', 'unlisted'] as const;
export type Coverage = (typeof COVERAGE_VALUES)[number];

/**
 * `tool` on `tool_argument_call` for a call whose tool is neither configured
 * nor in a catalog the integration read (a dispatcher's own name, a tool an
 * MCP server never listed): model-written and unbounded names never become series.
 */
export const TOOL_UNNAMED = '_other' as const;

/**
 * `outcome` of `tool_argument_repair_outcome`, once per rejected argument:
 * `resolved` — the model's next call of the tool in the same run or
 * conversation carried a member (or a case or format variant rewritten to one);
 * `repeated` — it was out of set again (each further retry counts again);
 * `abandoned` — the run ended, or `repairWindowMs` passed, without a retry.
 */
export const REPAIR_OUTCOME_VALUES = ['resolved', 'repeated', 'abandoned'] as const;
export type RepairOutcome = (typeof REPAIR_OUTCOME_VALUES)[number];

/** `change` of `tool_argument_value_set_change`. */
export const SET_CHANGE_VALUES = ['added', 'removed'] as const;

/** Every attribute value is a string; booleans are spelled out. */
export const BOOLEAN_VALUES = { TRUE: 'true', FALSE: 'false' } as const;

/**
 * `outcome` of a value-set fetch: `success`, or the failure reason. A payload
 * the provider refuses (malformed, empty, too large, shrunk too far) is
 * `invalid_payload`. The failure reasons are the core's
 * `FETCH_FAILURE_REASONS`: one it adds or renames is a compile error here.
 */
export const FETCH_OUTCOME_VALUES = {
  SUCCESS: 'success',
  FETCH_FAILED: 'fetch_failed',
  TIMEOUT: 'timeout',
  INVALID_PAYLOAD: 'invalid_payload',
} as const satisfies { SUCCESS: 'success' } & {
  [R in FetchFailureReason as Uppercase<R>]: R;
};

/** The attribute keys each instrument carries, and nothing else. */
export const INSTRUMENT_ATTRIBUTES = {
  [METRIC_TOOL_ARGUMENT_VALUE_CHECK]: [
    ATTR_TOOL,
    ATTR_ARGUMENT,
    ATTR_SET,
    ATTR_IN_SET,
    ATTR_IN_SET_NORMALISED,
  ],
  [METRIC_TOOL_ARGUMENT_MISMATCH]: [ATTR_TOOL, ATTR_ARGUMENT, ATTR_SET, ATTR_SHAPE],
  [METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE]: [ATTR_TOOL, ATTR_ARGUMENT, ATTR_SET, ATTR_REASON],
  [METRIC_TOOL_ARGUMENT_REPAIR_STARTED]: [ATTR_TOOL],
  [METRIC_TOOL_ARGUMENT_REWRITTEN]: [ATTR_TOOL, ATTR_ARGUMENT, ATTR_SET],
  [METRIC_TOOL_ARGUMENT_CALL]: [ATTR_TOOL, ATTR_INTEGRATION, ATTR_COVERAGE],
  [METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH]: [ATTR_SET, ATTR_SOURCE, ATTR_OUTCOME],
  [METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION]: [ATTR_SET, ATTR_SOURCE, ATTR_OUTCOME],
  [METRIC_TOOL_ARGUMENT_VALUE_SET_AGE]: [ATTR_SET, ATTR_SOURCE],
  [METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE]: [ATTR_SET, ATTR_SOURCE],
  [METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME]: [ATTR_TOOL, ATTR_ARGUMENT, ATTR_SET, ATTR_REPAIR_OUTCOME],
  [METRIC_TOOL_ARGUMENT_VALUE_SET_CHANGE]: [ATTR_SET, ATTR_SOURCE, ATTR_CHANGE],
} as const;

/**
 * The attribution keys, which the call-level instruments (every one above
 * whose attributes start with `tool`) carry besides their own, where known.
 */
export const ATTRIBUTION_ATTRIBUTES = [
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_PROMPT_VERSION,
  ATTR_TOOL_DEFINITION,
] as const;
