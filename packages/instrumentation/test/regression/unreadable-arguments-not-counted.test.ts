// Issue 11, item 1: a checked tool whose JSON-string arguments do not parse
// (a trailing comma) was counted nowhere. Each configured argument of the
// tool is now counted in tool_argument_check_unavailable{reason="unreadable"},
// and the call goes out untouched.
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import type { CheckMode } from '@argcheck/core';
import {
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { reason, refundSources, REFUNDS, series } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

describe('regression: unreadable JSON-string arguments were not counted', () => {
  let h: Harness;
  afterEach(() => h.close());

  for (const mode of ['observe', 'normalise', 'reject'] as CheckMode[]) {
    it(`${mode}: counts each configured argument as unavailable, reason unreadable`, async () => {
      h = harness({
        valueSets: { ...refundSources(), 'wms.warehouses': staticValueSet(['AMS1']) },
        checkedArguments: {
          refund_order: { reason_code: REFUNDS, 'lines[].warehouse': 'wms.warehouses' },
        },
        mode,
        clock: new ManualClock(),
      });
      await h.inst.ready();
      const text = '{"reason_code":"LATE",}';
      const outcome = h.inst.check('refund_order', text);
      expect(outcome).to.deep.include({ action: 'call', args: text });
      h.inst.check('refund_order', '[]');
      const collected = await h.collect();
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE)).to.deep.equal([
        {
          attributes: series(
            'refund_order',
            'lines[].warehouse',
            'wms.warehouses',
            reason('unreadable'),
          ),
          value: 2,
        },
        {
          attributes: series('refund_order', 'reason_code', REFUNDS, reason('unreadable')),
          value: 2,
        },
      ]);
      for (const name of [
        METRIC_TOOL_ARGUMENT_VALUE_CHECK,
        METRIC_TOOL_ARGUMENT_MISMATCH,
        METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
      ]) {
        expect(pointsOf(collected, name), name).to.deep.equal([]);
      }
      const counted = pointsOf(collected, METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE).reduce(
        (n, p) => n + Number(p.value),
        0,
      );
      recordFigure(
        'json-unreadable',
        `${mode}: ${counted} counted \`unreadable\` for 2 texts × 2 arguments, nothing else, the call untouched`,
      );
    });
  }
});
