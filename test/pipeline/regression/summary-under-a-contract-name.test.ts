import { expect } from 'chai';
import { startCollector, type RunningCollector } from '../support/collector-process.js';
import { argcheckNamespace, parseExposition } from '../support/exposition.js';
import { ARGCHECK_SCOPE, gauge, metricsRequest, sum, summary } from '../support/otlp-json.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: a Summary named tool_argument_value_check, with the emitted value as
// an attribute, reached Prometheus with every label. aggregate_on_attributes
// refuses Summaries, and `error_mode: ignore` let the metric through as it was.

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const identity = { job: 'refund-agent', instance: 'pod-1' };

describe('regression: a Summary under a contract name kept every label', function () {
  this.timeout(60_000);
  let collector: RunningCollector;
  let scrape: string;

  before(async () => {
    collector = await startCollector();
    await collector.post(
      '/v1/metrics',
      metricsRequest({ 'service.name': 'refund-agent', 'service.instance.id': 'pod-1' }, [
        {
          scope: 'refund-agent-metrics',
          items: [
            summary('tool_argument_value_check', '{check}', [
              [3, { ...refund, in_set: 'false', in_set_normalised: 'false', value: 'MODEL_TEXT' }],
            ]),
            // The application's own metrics, a Summary among them: untouched.
            summary('app_request_duration', 's', [[4, { route: '/refund' }]]),
            sum('app_tool_calls', '{call}', [[2, { tool: 'refund_order', value: 'MODEL_TEXT' }]]),
          ],
        },
        {
          scope: ARGCHECK_SCOPE,
          items: [
            gauge('tool_argument_value_set_size', '{value}', [
              [6, { set: 'refunds.reason_codes', source: 'http' }],
            ]),
          ],
        },
      ]),
    );
    // The marker travels in the same request, so the Summary has been
    // through the pipeline once the marker is on the exporter.
    scrape = await collector.scrapeWhen('the value-set size gauge', (text) =>
      text.includes('tool_argument_value_set_size{'),
    );
  });

  after(() => collector?.stop());

  it('drops the Summary: only contract series are in argcheck’s namespace', () => {
    const ours = argcheckNamespace(scrape);
    recordFigure(
      'collector-summary',
      `argcheck’s namespace at Prometheus: ${ours.length} sample (${ours.map((s) => s.name).join(', ')}), none of the Summary`,
    );
    expect(ours, scrape).to.deep.equal([
      {
        name: 'tool_argument_value_set_size',
        labels: { set: 'refunds.reason_codes', source: 'http', ...identity },
        value: 6,
      },
    ]);
  });

  it('leaves the application’s own Summary and counter as they were', () => {
    const own = parseExposition(scrape).filter((s) => s.name.startsWith('app_'));
    expect(own, scrape).to.deep.equal([
      {
        name: 'app_request_duration_seconds',
        labels: { route: '/refund', quantile: '0.5', ...identity },
        value: 1,
      },
      {
        name: 'app_request_duration_seconds_sum',
        labels: { route: '/refund', ...identity },
        value: 4,
      },
      {
        name: 'app_request_duration_seconds_count',
        labels: { route: '/refund', ...identity },
        value: 4,
      },
      {
        name: 'app_tool_calls_total',
        labels: { tool: 'refund_order', value: 'MODEL_TEXT', ...identity },
        value: 2,
      },
    ]);
    recordFigure(
      'collector-summary',
      `the application’s Summary and counter: ${own.length} samples, as sent`,
    );
  });
});
