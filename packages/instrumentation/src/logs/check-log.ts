import type { DiagLogger } from '@opentelemetry/api';
import type { CheckContext, Finding } from '@argcheck/core';
import type { ArgumentSeries } from '../telemetry/series.js';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_SHAPE,
  ATTR_VALUE,
  ATTR_VALUE_TRUNCATED,
  BOOLEAN_VALUES,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '../semconv.js';
import type { RedactValue } from '../types.js';
import { createSampler } from './sampler.js';
import { truncate, valueText } from './value-text.js';

export type CheckedFinding = Extract<Finding, { status: 'checked' }>;

/** The part of a Logger this package uses: the same on OTel JS 2.x (api-logs) and 3.x (api). */
export interface LogEmitter {
  emit(record: {
    eventName?: string;
    severityNumber?: number;
    severityText?: string;
    attributes?: Record<string, string>;
  }): void;
}

export interface CheckLogOptions {
  logSampleRatio: number;
  random: () => number;
  captureValues: boolean;
  maxValueLength: number;
  redactValue: RedactValue | undefined;
  /** The `conversationId` option: the conversation of a context that does not carry one. */
  conversationId: ((ctx: CheckContext) => string | undefined) | undefined;
  /** Read at each record, so that a logger provider set later is used. */
  logger: () => LogEmitter;
  diag: DiagLogger;
}

/** Sampled log records of checked values. */
export interface CheckLog {
  /**
   * Count the finding towards sampling; write a record when it is sampled.
   * A context given as a function is called only then. Never throws.
   */
  offer(
    series: ArgumentSeries,
    finding: CheckedFinding,
    ctx: CheckContext | (() => CheckContext) | undefined,
  ): void;
  /**
   * `offer` in two steps, for a caller that builds the finding only for a
   * record: count one finding towards sampling, and say whether it is due.
   */
  due(): boolean;
  /** Write the record of a finding `due` sampled. Never throws. */
  record(
    series: ArgumentSeries,
    finding: CheckedFinding,
    ctx: CheckContext | (() => CheckContext) | undefined,
  ): void;
}

const SEVERITY_INFO = 9;
const SEVERITY_WARN = 13;
const NO_CONTEXT: CheckContext = Object.freeze({});

function bool(value: boolean): string {
  return value ? BOOLEAN_VALUES.TRUE : BOOLEAN_VALUES.FALSE;
}

export function createCheckLog(options: CheckLogOptions): CheckLog {
  const sampler = createSampler(options.logSampleRatio, options.random);
  let redactionFailed = false;

  const conversationIdFor = (ctx: CheckContext): string | undefined => {
    if (options.conversationId === undefined) return undefined;
    try {
      const id = options.conversationId(ctx);
      return typeof id === 'string' ? id : undefined;
    } catch {
      return undefined;
    }
  };

  const capture = (series: ArgumentSeries, value: unknown): string | undefined => {
    const text = valueText(value);
    if (options.redactValue === undefined) return text;
    try {
      const redacted = options.redactValue(text, {
        tool: series.tool,
        argument: series.argument,
        set: series.set,
      });
      return typeof redacted === 'string' ? redacted : undefined;
    } catch (error) {
      // Fail closed: a value the redaction could not handle is left out.
      if (!redactionFailed) {
        redactionFailed = true;
        options.diag.warn(
          'redactValue threw; values it fails on are left out of log records',
          error,
        );
      }
      return undefined;
    }
  };

  const write = (series: ArgumentSeries, finding: CheckedFinding, ctx: CheckContext): void => {
    const attributes: Record<string, string> = {
      ...series.names,
      [ATTR_IN_SET]: bool(finding.inSet),
      [ATTR_IN_SET_NORMALISED]: bool(finding.inSetNormalised),
    };
    if (!finding.inSet && finding.shape !== undefined) attributes[ATTR_SHAPE] = finding.shape;
    const text = options.captureValues ? capture(series, finding.value) : undefined;
    if (text !== undefined) {
      const cut = truncate(text, options.maxValueLength);
      attributes[ATTR_VALUE] = cut.text;
      attributes[ATTR_VALUE_TRUNCATED] = bool(cut.truncated);
    }
    const conversationId = ctx.conversationId ?? conversationIdFor(ctx);
    if (typeof conversationId === 'string' && conversationId !== '') {
      attributes[ATTR_GEN_AI_CONVERSATION_ID] = conversationId;
    }
    if (typeof ctx.toolCallId === 'string' && ctx.toolCallId !== '') {
      attributes[ATTR_GEN_AI_TOOL_CALL_ID] = ctx.toolCallId;
    }
    options.logger().emit({
      eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
      severityNumber: finding.inSet ? SEVERITY_INFO : SEVERITY_WARN,
      severityText: finding.inSet ? 'INFO' : 'WARN',
      attributes,
    });
  };

  const record = (
    series: ArgumentSeries,
    finding: CheckedFinding,
    ctx: CheckContext | (() => CheckContext) | undefined,
  ): void => {
    try {
      write(series, finding, (typeof ctx === 'function' ? ctx() : ctx) ?? NO_CONTEXT);
    } catch (error) {
      options.diag.debug('a sampled log record could not be written', error);
    }
  };

  return {
    offer(series, finding, ctx) {
      if (sampler.sample()) record(series, finding, ctx);
    },
    due: () => sampler.sample(),
    record,
  };
}
