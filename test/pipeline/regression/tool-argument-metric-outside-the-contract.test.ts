import { expect } from 'chai';
import { startCollector, type RunningCollector } from '../support/collector-process.js';
import { argcheckNamespace, parseExposition } from '../support/exposition.js';
import {
  ARGCHECK_SCOPE,
  gauge,
  histogram,
  metricsRequest,
  sum,
  type AttributeInput,
} from '../support/otlp-json.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: only the contract's nine metric names were filtered, so
// tool_argument_emitted_values_total{value=...} from any application reached
// Prometheus, and so did a contract name sent with another type or unit
// (which the exporter turns into another series name). Everything the
// Prometheus exporter would name tool_argument* must be one of the nine, with
// the contract's type and unit.

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const identity = { job: 'refund-agent', instance: 'pod-1' };
const leak: AttributeInput = { ...refund, value: 'MODEL_TEXT' };
const set = { set: 'refunds.reason_codes', source: 'http' };

describe('regression: tool_argument_* metrics outside the contract reached Prometheus', function () {
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
            // Not contract names.
            sum('tool_argument_emitted_values', '{value}', [[5, leak]]),
            gauge('tool.argument.emitted', '{value}', [[1, leak]]),
            gauge('Tool_Argument_Leak', '{value}', [[1, leak]]),
            gauge('__tool__argument__leak', '{value}', [[1, leak]]),
            // Escaped and suffixed by the exporter into tool_argument_value.
            gauge('tool', 'argument_value', [[1, leak]]),
            // A contract name with the wrong type, monotonicity or unit.
            gauge('tool_argument_mismatch', '{check}', [[1, { ...leak, shape: 'invented' }]]),
            sum('tool_argument_rewritten', '{call}', [[1, leak]], { monotonic: false }),
            gauge('tool_argument_value_set_age', 'ms', [[1, { ...set, value: 'MODEL_TEXT' }]]),
            // The two newer counters, likewise.
            gauge('tool_argument_repair_outcome', '{call}', [
              [1, { ...leak, outcome: 'resolved' }],
            ]),
            sum('tool_argument_repair_outcome', '{check}', [[1, { ...leak, outcome: 'resolved' }]]),
            sum('tool_argument_value_set_change', '{value}', [[1, { ...set, change: 'added' }]], {
              monotonic: false,
            }),
            sum('tool_argument_value_set_change', 'values', [[1, { ...set, change: 'added' }]]),
            // The application's own metrics, one of them with a value label.
            gauge('app_queue_depth', '{item}', [[3, { queue: 'refunds' }]]),
            sum('agent_tool_argument_values', '{value}', [[7, leak]]),
          ],
        },
        {
          scope: ARGCHECK_SCOPE,
          items: [
            sum('tool_argument_value_check', '{check}', [
              [9, { ...refund, in_set: 'true', in_set_normalised: 'true' }],
            ]),
            histogram('tool_argument_value_set_fetch_duration', 's', [
              {
                count: 2,
                sum: 0.3,
                buckets: [1, 1],
                bounds: [0.1],
                a: { ...set, outcome: 'success' },
              },
            ]),
            gauge('tool_argument_value_set_age', 's', [[12, set]]),
          ],
        },
      ]),
    );
    scrape = await collector.scrapeWhen('the value-set age gauge', (text) =>
      text.includes('tool_argument_value_set_age_seconds{'),
    );
  });

  after(() => collector?.stop());

  it('keeps only the contract series, with their contract labels', () => {
    const fetch = { ...set, outcome: 'success', ...identity };
    expect(argcheckNamespace(scrape), scrape).to.deep.equal([
      {
        name: 'tool_argument_value_check_total',
        labels: { ...refund, in_set: 'true', in_set_normalised: 'true', ...identity },
        value: 9,
      },
      { name: 'tool_argument_value_set_age_seconds', labels: { ...set, ...identity }, value: 12 },
      {
        name: 'tool_argument_value_set_fetch_duration_seconds_bucket',
        labels: { ...fetch, le: '0.1' },
        value: 1,
      },
      {
        name: 'tool_argument_value_set_fetch_duration_seconds_bucket',
        labels: { ...fetch, le: '+Inf' },
        value: 2,
      },
      { name: 'tool_argument_value_set_fetch_duration_seconds_sum', labels: fetch, value: 0.3 },
      { name: 'tool_argument_value_set_fetch_duration_seconds_count', labels: fetch, value: 2 },
    ]);
    expect(parseExposition(scrape).filter((s) => s.labels.value !== undefined)).to.have.length(1);
    recordFigure(
      'collector-outside-contract',
      `12 metrics outside the contract sent beside 3 contract ones: ${argcheckNamespace(scrape).length} samples in argcheck’s namespace at Prometheus, all of the contract series, with their labels only`,
    );
  });

  it('leaves the application’s own metrics as they were, value label included', () => {
    const own = parseExposition(scrape).filter(
      (s) => s.name.startsWith('app_') || s.name.startsWith('agent_'),
    );
    expect(own, scrape).to.deep.equal([
      { name: 'agent_tool_argument_values_total', labels: { ...leak, ...identity }, value: 7 },
      { name: 'app_queue_depth', labels: { queue: 'refunds', ...identity }, value: 3 },
    ]);
    recordFigure(
      'collector-outside-contract',
      `the application’s ${own.length} metrics as sent, \`value\` label included`,
    );
  });
});
