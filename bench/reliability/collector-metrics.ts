// The collector's allow-list for metrics (issue 11, item 8): hostile metrics
// sent by hand to the real argcheck collector, read back from its Prometheus
// exporter as Prometheus would scrape them.
import {
  ARGCHECK_SCOPE,
  argcheckNamespace,
  gauge,
  histogram,
  metricsRequest,
  scrapeWhen,
  sum,
  summary,
} from '../lib/collector-io.js';
import {
  REGRESSION,
  agent,
  compare,
  contract,
  identity,
  leak,
  valueSet,
  withCollector,
} from './collector-harness.js';
import { test, type FaultRow } from './table.js';

export const collectorMetrics: FaultRow[] = [
  {
    area: 'Collector allow-list',
    fault:
      'A Summary named `tool_argument_value_check`, with the model’s value as an attribute, kept every label on its way to Prometheus',
    expected:
      'Dropped by `filter/argcheck`: only contract series are in argcheck’s namespace. The application’s own Summary and counter pass unchanged.',
    provedBy: [
      test(
        `${REGRESSION}/summary-under-a-contract-name.test.ts`,
        'drops the Summary: only contract series are in argcheck’s namespace',
      ),
      test(
        `${REGRESSION}/summary-under-a-contract-name.test.ts`,
        'leaves the application’s own Summary and counter as they were',
      ),
    ],
    measure: () =>
      withCollector(
        '0 Summary series; the application’s Summary and counter unchanged',
        async (c) => {
          await c.post(
            '/v1/metrics',
            metricsRequest(agent, [
              [
                'refund-agent-metrics',
                [
                  summary('tool_argument_value_check', '{check}', [
                    [3, { ...leak, in_set: 'false', in_set_normalised: 'false' }],
                  ]),
                  summary('app_request_duration', 's', [[4, { route: '/refund' }]]),
                  sum('app_tool_calls', '{call}', [[2, leak]]),
                ],
              ],
              [ARGCHECK_SCOPE, [gauge('tool_argument_value_set_size', '{value}', [[6, valueSet]])]],
            ]),
          );
          // The marker travels in the same request as the Summary.
          const samples = await scrapeWhen(c.prom, 'the value-set size gauge', (s) =>
            s.some((x) => x.name === 'tool_argument_value_set_size'),
          );
          const ours = compare(argcheckNamespace(samples), [
            {
              name: 'tool_argument_value_set_size',
              labels: { ...valueSet, ...identity },
              value: 6,
            },
          ]);
          const route = { route: '/refund', ...identity };
          const app = compare(
            samples.filter((s) => s.name.startsWith('app_')),
            [
              {
                name: 'app_request_duration_seconds',
                labels: { ...route, quantile: '0.5' },
                value: 1,
              },
              { name: 'app_request_duration_seconds_sum', labels: route, value: 4 },
              { name: 'app_request_duration_seconds_count', labels: route, value: 4 },
              { name: 'app_tool_calls_total', labels: { ...leak, ...identity }, value: 2 },
            ],
          );
          return {
            figure: `${ours.extra.length} samples of the Summary (or of anything else) in argcheck’s namespace beside the contract series (${ours.found} of 1, exact); the application’s Summary and counter: ${app.found} of 4 samples as sent, ${app.extra.length} others`,
            data: { extra: ours.extra, app },
          };
        },
      ),
  },
  {
    area: 'Collector allow-list',
    fault:
      '`tool_argument_*` metrics outside the twelve contract names (another name, spelling, type, monotonicity or unit) reached Prometheus with their `value` labels',
    expected:
      'Everything the Prometheus exporter would name `tool_argument*` must be one of the twelve, with the contract’s type and unit and only its labels; the rest is dropped whole. The application’s own metrics pass unchanged.',
    provedBy: [
      test(
        `${REGRESSION}/tool-argument-metric-outside-the-contract.test.ts`,
        'keeps only the contract series, with their contract labels',
      ),
      test(
        `${REGRESSION}/tool-argument-metric-outside-the-contract.test.ts`,
        'leaves the application’s own metrics as they were, value label included',
      ),
    ],
    measure: () =>
      withCollector(
        'none of 8 hostile metrics reaches Prometheus; 6 contract samples exact; the application’s 2 metrics unchanged',
        async (c) => {
          const hostile = [
            sum('tool_argument_emitted_values', '{value}', [[5, leak]]),
            gauge('tool.argument.emitted', '{value}', [[1, leak]]),
            gauge('Tool_Argument_Leak', '{value}', [[1, leak]]),
            gauge('__tool__argument__leak', '{value}', [[1, leak]]),
            gauge('tool', 'argument_value', [[1, leak]]),
            gauge('tool_argument_mismatch', '{check}', [[1, { ...leak, shape: 'invented' }]]),
            sum('tool_argument_rewritten', '{call}', [[1, leak]], false),
            gauge('tool_argument_value_set_age', 'ms', [[1, { ...valueSet, value: 'MODEL_TEXT' }]]),
          ];
          await c.post(
            '/v1/metrics',
            metricsRequest(agent, [
              [
                'refund-agent-metrics',
                [
                  ...hostile,
                  gauge('app_queue_depth', '{item}', [[3, { queue: 'refunds' }]]),
                  sum('agent_tool_argument_values', '{value}', [[7, leak]]),
                ],
              ],
              [
                ARGCHECK_SCOPE,
                [
                  sum('tool_argument_value_check', '{check}', [[9, contract]]),
                  histogram('tool_argument_value_set_fetch_duration', 's', {
                    ...valueSet,
                    outcome: 'success',
                  }),
                  gauge('tool_argument_value_set_age', 's', [[12, valueSet]]),
                ],
              ],
            ]),
          );
          const samples = await scrapeWhen(c.prom, 'the value-set age gauge', (s) =>
            s.some((x) => x.name === 'tool_argument_value_set_age_seconds'),
          );
          const fetch = { ...valueSet, outcome: 'success', ...identity };
          const duration = 'tool_argument_value_set_fetch_duration_seconds';
          const ours = compare(argcheckNamespace(samples), [
            {
              name: 'tool_argument_value_check_total',
              labels: { ...contract, ...identity },
              value: 9,
            },
            {
              name: 'tool_argument_value_set_age_seconds',
              labels: { ...valueSet, ...identity },
              value: 12,
            },
            { name: `${duration}_bucket`, labels: { ...fetch, le: '0.1' }, value: 1 },
            { name: `${duration}_bucket`, labels: { ...fetch, le: '+Inf' }, value: 2 },
            { name: `${duration}_sum`, labels: fetch, value: 0.3 },
            { name: `${duration}_count`, labels: fetch, value: 2 },
          ]);
          const app = compare(
            samples.filter((s) => s.name.startsWith('app_') || s.name.startsWith('agent_')),
            [
              {
                name: 'agent_tool_argument_values_total',
                labels: { ...leak, ...identity },
                value: 7,
              },
              { name: 'app_queue_depth', labels: { queue: 'refunds', ...identity }, value: 3 },
            ],
          );
          return {
            figure: `${hostile.length} hostile metrics sent: ${ours.extra.length} samples beyond the contract in argcheck’s namespace; contract samples exact: ${ours.found} of 6; the application’s metrics as sent: ${app.found} of 2`,
            data: { extra: ours.extra, found: ours.found, app },
          };
        },
      ),
  },
];
