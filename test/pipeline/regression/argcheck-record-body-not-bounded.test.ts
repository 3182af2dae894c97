import { expect } from 'chai';
import { startCollector, type RunningCollector } from '../support/collector-process.js';
import {
  ARGCHECK_SCOPE,
  CHECK_EVENT,
  NOW,
  asExported,
  attrs,
  logsRequest,
  type LogRecordJson,
} from '../support/otlp-json.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: the collector capped attribute values on argcheck's log records but
// never their body: a 5,005-character body (or a map of them) went to the file
// and the log backend as sent. argcheck's records carry no body and a short
// severity text; anything else there is not the contract's.

const LONG = 'x'.repeat(5_005);
const contract = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  in_set: 'true',
  in_set_normalised: 'true',
};

const checkRecord = (marker: string, extra: LogRecordJson): LogRecordJson => ({
  timeUnixNano: NOW,
  eventName: CHECK_EVENT,
  severityNumber: 9,
  severityText: 'INFO',
  attributes: attrs({ ...contract, 'gen_ai.tool.call.id': marker }),
  ...extra,
});

const appRecord: LogRecordJson = {
  timeUnixNano: NOW,
  severityNumber: 9,
  severityText: LONG,
  body: { stringValue: LONG },
  attributes: attrs({ route: '/refund' }),
};

describe('regression: the body of an argcheck log record was not bounded', function () {
  this.timeout(60_000);
  let collector: RunningCollector;
  let records: LogRecordJson[];

  before(async () => {
    collector = await startCollector();
    await collector.post(
      '/v1/logs',
      logsRequest({ 'service.name': 'refund-agent' }, [
        {
          scope: ARGCHECK_SCOPE,
          items: [
            checkRecord('string-body', { body: { stringValue: LONG } }),
            checkRecord('map-body', {
              body: { kvlistValue: { values: attrs({ prompt: LONG, user: LONG }) } },
            }),
            checkRecord('long-severity-text', { severityText: LONG }),
          ],
        },
        { scope: 'refund-agent', items: [appRecord] },
      ]),
    );
    const all = await collector.recordsWhen('four log records', (found) => found.length >= 4);
    records = all.map((r) => r.record);
  });

  after(() => collector?.stop());

  const expected = (marker: string): LogRecordJson => asExported(checkRecord(marker, {}));

  /** Characters in a record's body: a string's length, or a map's as JSON; none is 0. */
  const bodyLength = (r: LogRecordJson | undefined): number =>
    r?.body === undefined || JSON.stringify(r.body) === '{}'
      ? 0
      : 'stringValue' in r.body
        ? (r.body.stringValue?.length ?? 0)
        : JSON.stringify(r.body).length;

  it('removes a string body', () => {
    expect(records[0]).to.deep.equal(expected('string-body'));
    recordFigure(
      'collector-record-body',
      `a check record’s 5,005-character string body: ${bodyLength(records[0])} characters after the collector`,
    );
  });

  it('removes a map body', () => {
    expect(records[1]).to.deep.equal(expected('map-body'));
    recordFigure(
      'collector-record-body',
      `a map of two such strings: ${bodyLength(records[1])} characters`,
    );
  });

  it('keeps a severity text only when it is INFO or WARN', () => {
    const record = expected('long-severity-text');
    delete record.severityText;
    expect(records[2]).to.deep.equal(record);
    recordFigure(
      'collector-record-body',
      `a 5,005-character severity text: ${records[2]?.severityText === undefined ? 'cleared' : 'kept'}`,
    );
  });

  it('leaves the application’s own record, long body and all, as it was', () => {
    expect(records[3]).to.deep.equal(appRecord);
    recordFigure(
      'collector-record-body',
      `the application’s record unchanged, its body ${bodyLength(records[3]).toLocaleString('en-US')} characters`,
    );
  });
});
