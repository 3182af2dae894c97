/**
 * A check's outcome on the span it runs in (the `execute_tool` span a GenAI
 * instrumentation made, or any recording span), behind the `spanOutcome`
 * option. argcheck never starts a span of its own.
 *
 * - One span event per checked argument, named and keyed like the sampled
 *   log record (`tool_argument_value_check`: tool, argument, set, in_set,
 *   in_set_normalised, shape; or reason when the set was unavailable). Never
 *   the emitted value: values stay in the sampled log records.
 * - `error.type` = `tool_argument_rejected` when the call was rejected (the
 *   tool did not run). The GenAI conventions have no guardrail names yet
 *   (docs/decisions/0018-span-outcome.md); `error.type` is the stable name for
 *   how an operation ended.
 *
 * Only a recording span is written to, and nothing here throws.
 */
import { trace } from '@opentelemetry/api';
import type { Attributes, Span } from '@opentelemetry/api';
import type { CheckOutcome } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_ERROR_TYPE,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_REASON,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  BOOLEAN_VALUES,
  ERROR_TYPE_REJECTED,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '../semconv.js';
import { safeName } from './safe-name.js';

/** Write `outcome` on `span` (the active span if none is given), when it is recording. */
export type SpanOutcome = (outcome: CheckOutcome, span?: Span) => void;

const bool = (value: boolean) => (value ? BOOLEAN_VALUES.TRUE : BOOLEAN_VALUES.FALSE);

function record(outcome: CheckOutcome, given?: Span): void {
  const span = given ?? trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  for (const finding of outcome.findings) {
    const attributes: Attributes = {
      [ATTR_TOOL]: safeName(outcome.tool),
      [ATTR_ARGUMENT]: safeName(finding.argument),
      [ATTR_SET]: safeName(finding.set),
    };
    if (finding.status === 'unavailable') {
      attributes[ATTR_REASON] = finding.reason;
    } else {
      attributes[ATTR_IN_SET] = bool(finding.inSet);
      attributes[ATTR_IN_SET_NORMALISED] = bool(finding.inSetNormalised);
      if (finding.shape !== undefined) attributes[ATTR_SHAPE] = finding.shape;
    }
    span.addEvent(EVENT_TOOL_ARGUMENT_VALUE_CHECK, attributes);
  }
  if (outcome.action === 'reject') span.setAttribute(ATTR_ERROR_TYPE, ERROR_TYPE_REJECTED);
}

/** The span writer, or `undefined` when the option is off (the hot path then skips it). */
export function createSpanOutcome(enabled: boolean): SpanOutcome | undefined {
  if (!enabled) return undefined;
  return (outcome, span) => {
    if (outcome.findings.length === 0) return;
    try {
      record(outcome, span);
    } catch {
      // A span is the tracer's; telemetry never affects the call.
    }
  };
}
