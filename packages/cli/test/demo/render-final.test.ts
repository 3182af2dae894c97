import { expect } from 'chai';
import { argumentFigures, seriesOf } from '../../src/demo/demo-figures.js';
import {
  renderPartition,
  renderRepairExamples,
  renderSeries,
  renderSideBySide,
  renderStory,
} from '../../src/demo/render/render-final.js';
import { refundSnapshot } from '../helpers/snapshots.js';

describe('demo final report', () => {
  const snapshot = refundSnapshot(60_000, { members: 3_518, caseSlips: 63, invented: 169 });

  it('renders the shape partition and the normalisation arithmetic', () => {
    const [refund] = argumentFigures(snapshot);
    if (!refund) throw new Error('no refund figures');
    expect(renderPartition(refund).join('\n')).to.equal(
      `Mismatch shapes of refund_order.reason_code (232 of 3,750 checks)
  shape     count  of mismatches  of calls
  case         63         27.2 %     1.7 %
  invented    169         72.8 %     4.5 %
  total       232        100.0 %     6.2 %
  case + format are 27.2 % of the mismatches: normalisation leaves 6.2 % × (1 − 27.2 %) = 4.5 % (formatting tax 1.7 pts)`,
    );
  });

  it('renders the story, one row per stretch', () => {
    const refund = {
      checks: 1_000,
      outOfSet: 62,
      outOfSetNormalised: 45,
      outOfSetRate: 0.062,
      normalisedRate: 0.045,
      byModel: [],
      byDefinition: [],
    };
    const lines = renderStory([
      { name: 'baseline', label: 'baseline', calls: 2_000, seconds: 8, refund, unavailable: 0, createTicket: { planned: 700, succeeded: 700 }, maxAgeSeconds: { 'identity.active_handles': 3 } },
      { name: 'outage', label: 'identity owner down', calls: 500, seconds: 2, refund, unavailable: 42, createTicket: { planned: 175, succeeded: 175 }, maxAgeSeconds: { 'identity.active_handles': 9.6 } },
    ]); // prettier-ignore
    expect(lines.join('\n')).to.equal(
      `The story (refund_order.reason_code out of set, per stretch)
stretch              calls  out of set  normalised  create_ticket ok  unavailable  handles age (max)
baseline             2,000       6.2 %       4.5 %           700/700            0              3.0 s
identity owner down    500       6.2 %       4.5 %           175/175           42              9.6 s`,
    );
  });

  it('sums the series up by name, says how many sit at zero and why, and shows one in full', () => {
    expect(renderSeries(seriesOf(snapshot)).join('\n')).to.equal(
      `Series the backend receives: 7 under 4 names. 6 have counted something
or are gauges; 1 is a counter still at zero, exported from start-up so that rate()
sees a series before its first count (docs/telemetry.md, "What exists at start-up"). No
emitted value is ever an attribute. In Prometheus, counters carry the _total suffix.
  name                             series  at zero  attributes
  tool_argument_check_unavailable       1        1  tool, argument, set, reason
  tool_argument_mismatch                2        0  tool, argument, set, shape
  tool_argument_value_check             3        0  tool, argument, set, in_set, in_set_normalised
  tool_argument_value_set_age           1        0  set, source
One of them in full:
  tool_argument_mismatch{tool="refund_order", argument="reason_code", set="refunds.reason_codes", shape="case"}`,
    );
  });

  it('reads the rollout and the canary each on their own lines, beside the aggregate', () => {
    const split = (value: string, checks: number, outOfSet: number) => ({
      value,
      checks,
      outOfSet,
      outOfSetRate: outOfSet / checks,
    });
    const lines = renderSideBySide({
      sideBySide: {
        rollout: { phase: 'description_rewrite', label: 'rewrite on half the servers', attribute: 'tool_definition', rows: [split('2b5774108536', 500, 31), split('9842830be7be', 500, 6)], aggregate: { checks: 1_000, outOfSet: 37, outOfSetRate: 0.037 }, before: 0.062 },
        canary: { phase: 'provider_canary', label: 'provider canary', attribute: 'gen_ai.request.model', rows: [split('acme-chat-4', 850, 9), split('nova-large-1', 150, 5)], aggregate: { checks: 1_000, outOfSet: 14, outOfSetRate: 0.014 }, before: 0.011 },
      },
      definitions: [
        { tool: 'refund_order', toolDefinition: '2b5774108536', description: 'old', listing: 'original' },
        { tool: 'refund_order', toolDefinition: '9842830be7be', description: 'new', listing: 'rewritten' },
      ],
    }); // prettier-ignore
    expect(lines.join('\n')).to.equal(
      `Side by side (refund_order.reason_code out of set, by attribution, beside the aggregate)
rewrite on half the servers:
  series                                               checks  out of set
  tool_definition=2b5774108536  original description      500       6.2 %
  tool_definition=9842830be7be  rewritten description     500       1.2 %
  aggregate                                             1,000       3.7 %
  The rewrite's effect on its own line, while the rollout runs: 6.2 % on the original description, 1.2 % on the rewritten one; the aggregate shows 3.7 %.
provider canary:
  series                                      checks  out of set
  gen_ai.request.model=acme-chat-4   current     850       1.1 %
  gen_ai.request.model=nova-large-1  canary      150       3.3 %
  aggregate                                    1,000       1.4 %
  nova-large-1 is out of set 3.3 % against acme-chat-4's 1.1 % (3.1×); the aggregate went from 1.1 % before the canary to 1.4 % (+0.3 pts): read the canary on its own line, not the aggregate.
  (150 checks on the smallest line: one call there is 0.7 pts; a longer run reads closer to the story's rates.)`,
    );
    expect(renderSideBySide({ sideBySide: {}, definitions: [] })).to.deep.equal([]);
  });

  it('shows each refused call with the repair message the model read and its retry', () => {
    const lines = renderRepairExamples([
      {
        tool: 'refund_order',
        route: 'canary',
        call: 41,
        sent: { reason_code: 'QUALITY_ISSUE' },
        message: 'refund_order was not called: …',
        retried: { reason_code: 'OTHER' },
        retryAccepted: true,
      },
    ]);
    expect(lines).to.deep.equal([
      'Repair messages, as the model read them (the first refused call of each tool)',
      'refund_order (call 42, nova-large-1)',
      '  sent     {"reason_code":"QUALITY_ISSUE"}',
      '  answer   refund_order was not called: …',
      '  retried  {"reason_code":"OTHER"}: went through',
    ]);
    expect(renderRepairExamples([])).to.deep.equal([]);
  });
});
