import type { Snapshot } from '../../src/demo/telemetry/snapshot.js';

const REFUND = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };

/** A collection with refund checks: `members` in set, `caseSlips` fixed by normalisation, `invented` not. */
export function refundSnapshot(
  at: number,
  counts: { members: number; caseSlips: number; invented: number; unavailable?: number },
): Snapshot {
  const check = (inSet: string, normalised: string, value: number) => ({
    name: 'tool_argument_value_check',
    kind: 'counter' as const,
    attributes: { ...REFUND, in_set: inSet, in_set_normalised: normalised },
    value,
  });
  const mismatch = (shape: string, value: number) => ({
    name: 'tool_argument_mismatch',
    kind: 'counter' as const,
    attributes: { ...REFUND, shape },
    value,
  });
  return {
    at,
    points: [
      check('true', 'true', counts.members),
      check('false', 'true', counts.caseSlips),
      check('false', 'false', counts.invented),
      mismatch('case', counts.caseSlips),
      mismatch('invented', counts.invented),
      {
        name: 'tool_argument_check_unavailable',
        kind: 'counter',
        attributes: { tool: 'create_ticket', argument: 'assignee', set: 'identity.active_handles', reason: 'expired' },
        value: counts.unavailable ?? 0,
      },
      { name: 'tool_argument_value_set_age', kind: 'gauge', attributes: { set: 'refunds.reason_codes', source: 'http' }, value: 1.5 },
    ],
  };
} // prettier-ignore
