// The collector's allow-list for log records (issue 11, item 8): hostile
// records sent by hand to the real argcheck collector, read back from the
// file its file exporter writes (the input of `argcheck report`).
import { spawnSync } from 'node:child_process';
import { argcheckBin } from '../lib/argcheck-bin.js';
import {
  ARGCHECK_SCOPE,
  CHECK_EVENT,
  attrs,
  logRecord,
  logsRequest,
  recordsWhen,
  type LogRecordJson,
} from '../lib/collector-io.js';
import { num } from '../lib/report.js';
import {
  LONG,
  REGRESSION,
  bodyLength,
  contract,
  refund,
  withCollector,
} from './collector-harness.js';
import { test, type FaultRow } from './table.js';

export const collectorLogs: FaultRow[] = [
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
            logRecord({
              eventName: CHECK_EVENT,
              severityNumber: 9,
              severityText: 'INFO',
              attributes: attrs({ ...contract, 'gen_ai.tool.call.id': marker }),
              ...extra,
            });
          const app = logRecord({
            severityNumber: 9,
            severityText: LONG,
            body: { stringValue: LONG },
          });
          await c.post(
            '/v1/logs',
            logsRequest({ 'service.name': 'refund-agent' }, [
              [
                ARGCHECK_SCOPE,
                [
                  check('string-body', { body: { stringValue: LONG } }),
                  check('map-body', {
                    body: { kvlistValue: { values: attrs({ prompt: LONG, user: LONG }) } },
                  }),
                  check('long-severity-text', { severityText: LONG }),
                ],
              ],
              ['refund-agent', [app]],
            ]),
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
        'drops every record under argcheck’s scope that is not its check or tool-definition event',
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
          const check = logRecord({
            eventName: CHECK_EVENT,
            severityNumber: 9,
            severityText: 'INFO',
            attributes: attrs(contract),
          });
          const app = logRecord({
            severityNumber: 9,
            body: { stringValue: 'refund issued' },
            attributes: attrs(secret),
          });
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
        const checked = {
          ...refund,
          in_set: 'false',
          in_set_normalised: 'false',
          shape: 'invented',
          value: 'CUSTOMER_UNHAPPY',
        };
        await c.post(
          '/v1/logs',
          logsRequest({ 'service.name': 'refund-agent' }, [
            [
              ARGCHECK_SCOPE,
              [
                logRecord({
                  severityNumber: 13,
                  severityText: 'WARN',
                  attributes: attrs({ ...checked, 'event.name': CHECK_EVENT, 'enduser.id': 'c-1' }),
                }),
              ],
            ],
          ]),
        );
        const [written] = await recordsWhen(c.logFile, 'the check record', (r) => r.length >= 1);
        const report = spawnSync(
          process.execPath,
          [argcheckBin(), 'report', '--format', 'json', c.logFile],
          { encoding: 'utf8' },
        );
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
