/**
 * The scenario every framework test runs: in one turn the model calls
 * `refund_order` three times, with a member (`DAMAGED`), a case variant
 * (`damaged`) and an invented code (`CUSTOMER_UNHAPPY`); its next turn shows
 * what each call answered. What the tool receives, what the model sees and
 * what is counted depend only on the mode, whatever the framework.
 */
import { createArgumentChecker, createValueSetProvider } from '@argcheck/core';
import type { CheckMode } from '@argcheck/core';
import {
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  ATTR_SET,
  ATTR_TOOL,
} from '../../src/semconv.js';
import {
  inSet,
  REFUND_ARGUMENTS,
  refundSeries,
  refundSources,
  shape,
} from '../helpers/fixtures.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Collected, Point } from '@argcheck/testing/metrics';

export const MODES: readonly CheckMode[] = ['observe', 'normalise', 'reject'];

/** The model's three calls, by call id. */
export const CALLS = [
  { id: 'call-1', args: { order_id: 'o-1', reason_code: 'DAMAGED' } },
  { id: 'call-2', args: { order_id: 'o-2', reason_code: 'damaged' } },
  { id: 'call-3', args: { order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' } },
] as const;

/** What the tool answers when it runs. */
export const toolAnswer = (args: { order_id: string; reason_code: string }) =>
  `refunded ${args.order_id} (${args.reason_code})`;

/** The reason code the tool receives per order, or none: it did not run. */
export function expectedReceived(mode: CheckMode): Record<string, string> {
  if (mode === 'observe') return { 'o-1': 'DAMAGED', 'o-2': 'damaged', 'o-3': 'CUSTOMER_UNHAPPY' };
  if (mode === 'normalise')
    return { 'o-1': 'DAMAGED', 'o-2': 'DAMAGED', 'o-3': 'CUSTOMER_UNHAPPY' };
  return { 'o-1': 'DAMAGED', 'o-2': 'DAMAGED' };
}

/** The repair message for `CUSTOMER_UNHAPPY`, as the core writes it. */
export async function repairMessage(): Promise<string> {
  const valueSets = createValueSetProvider({ sources: refundSources() });
  const checker = createArgumentChecker({
    valueSets,
    checkedArguments: REFUND_ARGUMENTS,
    mode: 'reject',
  });
  await valueSets.ready();
  const outcome = checker.check('refund_order', CALLS[2].args);
  valueSets.close();
  return outcome.repairMessage as string;
}

/** What the model reads back per call id: the tool's answer, or `repair` (the repair message). */
export function expectedAnswers(mode: CheckMode, repair: string): Record<string, string> {
  const received = expectedReceived(mode);
  const answers: Record<string, string> = {};
  for (const call of CALLS) {
    const code = received[call.args.order_id];
    answers[call.id] =
      code === undefined ? repair : toolAnswer({ order_id: call.args.order_id, reason_code: code });
  }
  return answers;
}

/** The argcheck counters after the scenario, every data point with its whole attribute object. */
export function expectedCounters(mode: CheckMode): Record<string, Point[]> {
  return {
    [METRIC_TOOL_ARGUMENT_VALUE_CHECK]: [
      { attributes: refundSeries(inSet(false, false)), value: 1 },
      { attributes: refundSeries(inSet(false, true)), value: 1 },
      { attributes: refundSeries(inSet(true, true)), value: 1 },
    ],
    [METRIC_TOOL_ARGUMENT_MISMATCH]: [
      { attributes: refundSeries(shape('case')), value: 1 },
      { attributes: refundSeries(shape('invented')), value: 1 },
    ],
    [METRIC_TOOL_ARGUMENT_REWRITTEN]:
      mode === 'observe' ? [] : [{ attributes: refundSeries(), value: 1 }],
    [METRIC_TOOL_ARGUMENT_REPAIR_STARTED]:
      mode === 'reject' ? [{ attributes: { [ATTR_TOOL]: 'refund_order' }, value: 1 }] : [],
  };
}

export function countersOf(collected: Collected): Record<string, Point[]> {
  const out: Record<string, Point[]> = {};
  for (const name of Object.keys(expectedCounters('observe')))
    out[name] = pointsOf(collected, name);
  return out;
}

/** The same points, counted against another set (a set derived from a tool's schema). */
export function onSet(counters: Record<string, Point[]>, set: string): Record<string, Point[]> {
  const out: Record<string, Point[]> = {};
  for (const [name, points] of Object.entries(counters)) {
    out[name] = points.map((p) =>
      ATTR_SET in p.attributes ? { ...p, attributes: { ...p.attributes, [ATTR_SET]: set } } : p,
    );
  }
  return out;
}
