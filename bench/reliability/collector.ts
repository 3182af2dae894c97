// The collector's allow-list (issue 11, item 8): hostile metrics and log
// records sent by hand to the real argcheck collector (otel-collector.yaml on
// free loopback ports), read back from its Prometheus exporter and its file
// exporter. Where the collector is not built, a row says so and what its test
// asserts, and measures nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argcheckBin } from '../lib/argcheck-bin.js';
import {
  ARGCHECK_SCOPE,
  CHECK_EVENT,
  argcheckNamespace,
  attrs,
  gauge,
  histogram,
  logRecord,
  logsRequest,
  metricsRequest,
  post,
  recordsWhen,
  scrapeWhen,
  sum,
  summary,
  until,
  type LogRecordJson,
  type Sample,
} from '../lib/collector-io.js';
import { freePort, startCollector } from '../lib/collector-process.js';
import { repoRoot } from '../lib/paths.js';
import { num } from '../lib/report.js';
import { test, type FaultRow, type Figure } from './table.js';

const REGRESSION = 'test/pipeline/regression';
const BINARY = join(repoRoot, '.cache/otelcol/argcheck-otelcol');

export interface RunningCollector {
  /** POST an OTLP/JSON request (retried while the receiver is not yet listening). */
  post(path: '/v1/metrics' | '/v1/logs', body: unknown): Promise<void>;
  prom: number;
  logFile: string;
}

/**
 * Runs `measure` against a collector started for it, or, where the collector
 * is not built, measures nothing and says what the cited test asserts.
 */
export async function withCollector(
  asserts: string,
  measure: (c: RunningCollector) => Promise<Figure>,
): Promise<Figure> {
  if (!existsSync(BINARY)) {
    return {
      figure: `not measured: no collector built here (\`npm run pipeline:build\`); the test asserts ${asserts}`,
      data: { measured: false },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-reliability-collector-'));
  // Log records also go to an OTLP backend; none listens there, and the file gets them all.
  const collector = await startCollector(dir, await freePort(), 512);
  try {
    return await measure({
      prom: collector.ports.prom,
      logFile: join(dir, 'logs.jsonl'),
      post: (path, body) =>
        until('the OTLP receiver', () =>
          post(collector.ports.http, path, body).then(
            () => true,
            (error: Error) => {
              if (error.message.startsWith(path)) throw error;
              return undefined; // not listening yet
            },
          ),
        ).then(() => undefined),
    });
  } finally {
    await collector.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const identity = { job: 'refund-agent', instance: 'pod-1' };
const agent = { 'service.name': 'refund-agent', 'service.instance.id': 'pod-1' };
const valueSet = { set: 'refunds.reason_codes', source: 'http' };
const leak = { ...refund, value: 'MODEL_TEXT' };
const contract = { ...refund, in_set: 'true', in_set_normalised: 'true' };
const LONG = 'x'.repeat(5_005);

const canonical = (s: Sample): string =>
  JSON.stringify([s.name, Object.entries(s.labels).sort(([a], [b]) => (a < b ? -1 : 1)), s.value]);
const same = (a: Sample, b: Sample): boolean => canonical(a) === canonical(b);
/** Samples of `got` that are not among `expected`, and how many of `expected` were there. */
function compare(got: readonly Sample[], expected: readonly Sample[]) {
  return {
    extra: got.filter((s) => !expected.some((e) => same(s, e))),
    found: expected.filter((e) => got.some((s) => same(s, e))).length,
  };
}
/** Characters in a record's body: a string's length, or a map's as JSON; none is 0. */
function bodyLength(r: LogRecordJson | undefined): number {
  const body = r?.body;
  if (body === undefined || JSON.stringify(body) === '{}') return 0;
  return 'stringValue' in body ? (body.stringValue?.length ?? 0) : JSON.stringify(body).length;
}

export const collectorAllowList: FaultRow[] = [
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
            ['refund-agent-metrics', [
              summary('tool_argument_value_check', '{check}', [[3, { ...leak, in_set: 'false', in_set_normalised: 'false' }]]),
              summary('app_request_duration', 's', [[4, { route: '/refund' }]]),
              sum('app_tool_calls', '{call}', [[2, leak]]),
            ]],
            [ARGCHECK_SCOPE, [gauge('tool_argument_value_set_size', '{value}', [[6, valueSet]])]],
          ]), // prettier-ignore
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
      '`tool_argument_*` metrics outside the nine contract names (another name, spelling, type, monotonicity or unit) reached Prometheus with their `value` labels',
    expected:
      'Everything the Prometheus exporter would name `tool_argument*` must be one of the nine, with the contract’s type and unit and only its labels; the rest is dropped whole. The application’s own metrics pass unchanged.',
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
            ['refund-agent-metrics', [
              ...hostile,
              gauge('app_queue_depth', '{item}', [[3, { queue: 'refunds' }]]),
              sum('agent_tool_argument_values', '{value}', [[7, leak]]),
            ]],
            [ARGCHECK_SCOPE, [
              sum('tool_argument_value_check', '{check}', [[9, contract]]),
              histogram('tool_argument_value_set_fetch_duration', 's', { ...valueSet, outcome: 'success' }),
              gauge('tool_argument_value_set_age', 's', [[12, valueSet]]),
            ]],
          ]), // prettier-ignore
          );
          const samples = await scrapeWhen(c.prom, 'the value-set age gauge', (s) =>
            s.some((x) => x.name === 'tool_argument_value_set_age_seconds'),
          );
          const fetch = { ...valueSet, outcome: 'success', ...identity };
          const duration = 'tool_argument_value_set_fetch_duration_seconds';
          const ours = compare(argcheckNamespace(samples), [
          { name: 'tool_argument_value_check_total', labels: { ...contract, ...identity }, value: 9 },
          { name: 'tool_argument_value_set_age_seconds', labels: { ...valueSet, ...identity }, value: 12 },
          { name: `${duration}_bucket`, labels: { ...fetch, le: '0.1' }, value: 1 },
          { name: `${duration}_bucket`, labels: { ...fetch, le: '+Inf' }, value: 2 },
          { name: `${duration}_sum`, labels: fetch, value: 0.3 },
          { name: `${duration}_count`, labels: fetch, value: 2 },
        ]); // prettier-ignore
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
  {
    area: 'Collector allow-list',
    fault:
      'The body of argcheck’s check records was never bounded: a 5,005-character string body, or a map of them, went to the file and the log backend as sent',
    expected:
      'The body of a check record is removed, and a severity text other than INFO or WARN cleared (argcheck’s records carry neither); the application’s own records pass unchanged.',
    provedBy: [
      test(`${REGRESSION}/argcheck-record-body-not-bounded.test.ts`, 'removes a string body'),
      test(`${REGRESSION}/argcheck-record-body-not-bounded.test.ts`, 'removes a map body'),
      test(
        `${REGRESSION}/argcheck-record-body-not-bounded.test.ts`,
        'leaves the application’s own record, long body and all, as it was',
      ),
    ],
    measure: () =>
      withCollector(
        'string and map bodies removed, a long severity text cleared, the application’s record unchanged',
        async (c) => {
          const check = (marker: string, extra: LogRecordJson) =>
          logRecord({ eventName: CHECK_EVENT, severityNumber: 9, severityText: 'INFO',
            attributes: attrs({ ...contract, 'gen_ai.tool.call.id': marker }), ...extra }); // prettier-ignore
          const app = logRecord({
            severityNumber: 9,
            severityText: LONG,
            body: { stringValue: LONG },
          });
          await c.post(
            '/v1/logs',
            logsRequest({ 'service.name': 'refund-agent' }, [
            [ARGCHECK_SCOPE, [
              check('string-body', { body: { stringValue: LONG } }),
              check('map-body', { body: { kvlistValue: { values: attrs({ prompt: LONG, user: LONG }) } } }),
              check('long-severity-text', { severityText: LONG }),
            ]],
            ['refund-agent', [app]],
          ]), // prettier-ignore
          );
          const records = await recordsWhen(c.logFile, 'four log records', (r) => r.length >= 4);
          const ours = records.filter((r) => r.scope === ARGCHECK_SCOPE).map((r) => r.record);
          const theirs = records.find((r) => r.scope !== ARGCHECK_SCOPE)?.record;
          const bodies = ours.slice(0, 2).map(bodyLength);
          return {
            figure: `check records’ bodies after the collector: ${bodies.join(' and ')} characters (sent: a ${num(LONG.length)}-character string, a map of two); the ${num(LONG.length)}-character severity text: ${ours[2]?.severityText === undefined ? 'cleared' : `${ours[2].severityText.length} characters`}; the application’s record: ${JSON.stringify(theirs) === JSON.stringify(app) ? 'unchanged' : '**changed**'}, body ${num(bodyLength(theirs))} characters`,
            data: { bodies, severityText: ours[2]?.severityText?.length, app: bodyLength(theirs) },
          };
        },
      ),
  },
  {
    area: 'Collector allow-list',
    fault:
      'Records under argcheck’s instrumentation scope without its check event name (or with another) passed untouched, an `authorization` attribute included',
    expected:
      'argcheck emits one kind of record: anything else under its scope is dropped. Records of other scopes are the application’s and pass unchanged.',
    provedBy: [
      test(
        `${REGRESSION}/argcheck-scope-record-without-event-name.test.ts`,
        'drops every record under argcheck’s scope that is not its check event',
      ),
      test(
        `${REGRESSION}/argcheck-scope-record-without-event-name.test.ts`,
        'leaves the application’s own record, authorization attribute and all, as it was',
      ),
    ],
    measure: () =>
      withCollector(
        'both records without the event name dropped, the check record and the application’s record unchanged',
        async (c) => {
          const secret = {
            authorization: 'Bearer eyJhbGciOi.secret',
            'user.email': 'a@example.com',
          };
          const check = logRecord({ eventName: CHECK_EVENT, severityNumber: 9, severityText: 'INFO', attributes: attrs(contract) }); // prettier-ignore
          const app = logRecord({ severityNumber: 9, body: { stringValue: 'refund issued' }, attributes: attrs(secret) }); // prettier-ignore
          const strays = [
            logRecord({ body: { stringValue: 'no event name' }, attributes: attrs(secret) }),
            logRecord({ eventName: 'tool_argument_debug', attributes: attrs(secret) }),
          ];
          await c.post(
            '/v1/logs',
            logsRequest({ 'service.name': 'refund-agent' }, [
              [ARGCHECK_SCOPE, [...strays, check]],
              ['refund-agent', [app]],
            ]),
          );
          // All four travel in one request: once two are in the file, all have been through.
          const records = await recordsWhen(c.logFile, 'two records', (r) => r.length >= 2);
          const ours = records.filter((r) => r.scope === ARGCHECK_SCOPE);
          const kept = ours.filter((r) => r.record.eventName === CHECK_EVENT).length;
          const theirs = records.find((r) => r.scope !== ARGCHECK_SCOPE)?.record;
          return {
            figure: `${strays.length - (ours.length - kept)} of ${strays.length} records under argcheck’s scope without its event name dropped; ${kept} check record kept; the application’s record ${JSON.stringify(theirs) === JSON.stringify(app) ? 'unchanged, `authorization` and all' : '**changed**'}`,
            data: { written: records.length, ours: ours.length, kept },
          };
        },
      ),
  },
  {
    area: 'Collector allow-list',
    fault:
      'A check record naming its event in the `event.name` attribute (older SDKs) left the collector without any event name, so `argcheck report` skipped it',
    expected:
      'The collector moves the name into the record’s event-name field: every check record leaves in one form, and `argcheck report` counts it.',
    provedBy: [
      test(`${REGRESSION}/event-name-attribute-lost.test.ts`, 'is counted by argcheck report'),
      test(
        `${REGRESSION}/event-name-attribute-lost.test.ts`,
        'leaves with the event name in its field and only contract attributes',
      ),
    ],
    measure: () =>
      withCollector('`argcheck report` counts 1 record of 1', async (c) => {
        const checked = { ...refund, in_set: 'false', in_set_normalised: 'false', shape: 'invented', value: 'CUSTOMER_UNHAPPY' }; // prettier-ignore
        await c.post(
          '/v1/logs',
          logsRequest({ 'service.name': 'refund-agent' }, [
            [ARGCHECK_SCOPE, [logRecord({ severityNumber: 13, severityText: 'WARN',
              attributes: attrs({ ...checked, 'event.name': CHECK_EVENT, 'enduser.id': 'c-1' }) })]],
          ]), // prettier-ignore
        );
        const [written] = await recordsWhen(c.logFile, 'the check record', (r) => r.length >= 1);
        const report = spawnSync(process.execPath, [argcheckBin(), 'report', '--format', 'json', c.logFile], { encoding: 'utf8' }); // prettier-ignore
        if (report.status !== 0) throw new Error(`argcheck report: ${report.stderr}`);
        const { arguments: counted } = JSON.parse(report.stdout) as {
          arguments: { records: number }[];
        };
        const keys = (written?.record.attributes ?? []).map((a) => a.key);
        return {
          figure: `left with event name \`${written?.record.eventName ?? 'none'}\` and ${keys.length} attributes (${keys.includes('enduser.id') ? '**`enduser.id` kept**' : 'contract only'}); \`argcheck report\` counted ${counted.reduce((n, a) => n + a.records, 0)} of 1`,
          data: { eventName: written?.record.eventName, keys, counted },
        };
      }),
  },
];
