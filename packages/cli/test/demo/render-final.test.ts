import { expect } from 'chai';
import { argumentFigures, seriesOf } from '../../src/demo/demo-figures.js';
import { renderPartition, renderSeries, renderStory } from '../../src/demo/render/render-final.js';
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

  it('lists the series by name and attribute set, without values', () => {
    expect(renderSeries(seriesOf(snapshot)).slice(2)).to.deep.equal([
      'tool_argument_check_unavailable',
      '  {tool="create_ticket", argument="assignee", set="identity.active_handles", reason="expired"}',
      'tool_argument_mismatch',
      '  {tool="refund_order", argument="reason_code", set="refunds.reason_codes", shape="case"}',
      '  {tool="refund_order", argument="reason_code", set="refunds.reason_codes", shape="invented"}',
      'tool_argument_value_check',
      '  {tool="refund_order", argument="reason_code", set="refunds.reason_codes", in_set="false", in_set_normalised="false"}',
      '  {tool="refund_order", argument="reason_code", set="refunds.reason_codes", in_set="false", in_set_normalised="true"}',
      '  {tool="refund_order", argument="reason_code", set="refunds.reason_codes", in_set="true", in_set_normalised="true"}',
      'tool_argument_value_set_age',
      '  {set="refunds.reason_codes", source="http"}',
    ]);
  });
});
