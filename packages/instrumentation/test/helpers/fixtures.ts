import { staticValueSet } from '@argcheck/core';
import type { ValueSetSource } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_REASON,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_SOURCE,
  ATTR_TOOL,
} from '../../src/semconv.js';

export const REFUND_CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE'];
export const REFUNDS = 'refunds.reason_codes';

export function refundSources(): Record<string, ValueSetSource> {
  return { [REFUNDS]: staticValueSet(REFUND_CODES) };
}

export const REFUND_ARGUMENTS = { refund_order: { reason_code: REFUNDS } };

/** The attributes of a checked argument's series, plus what distinguishes it. */
export function series(
  tool: string,
  argument: string,
  set: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { [ATTR_TOOL]: tool, [ATTR_ARGUMENT]: argument, [ATTR_SET]: set, ...extra };
}

/** The attributes of a series of `refund_order.reason_code`, plus what distinguishes it. */
export function refundSeries(extra: Record<string, string> = {}): Record<string, string> {
  return series('refund_order', 'reason_code', REFUNDS, extra);
}

/** The attributes of a value set's gauges. */
export const setSeries = (set: string, source: string): Record<string, string> => ({
  [ATTR_SET]: set,
  [ATTR_SOURCE]: source,
});

export const inSet = (inSetValue: boolean, normalised: boolean): Record<string, string> => ({
  [ATTR_IN_SET]: String(inSetValue),
  [ATTR_IN_SET_NORMALISED]: String(normalised),
});
export const shape = (value: string): Record<string, string> => ({ [ATTR_SHAPE]: value });
export const reason = (value: string): Record<string, string> => ({ [ATTR_REASON]: value });
