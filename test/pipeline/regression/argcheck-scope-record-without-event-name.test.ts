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

// Defect: the collector recognised argcheck's log records by their event name
// only. A record under argcheck's instrumentation scope without that event
// name (or with another one) went out untouched, `authorization` attribute
// included. argcheck emits two kinds of record (the check event and the
// tool-definition event); anything else under its scope is dropped. Records of other scopes without the event name are the
// application's and pass unchanged.

const secret = { authorization: 'Bearer eyJhbGciOi.secret', 'user.email': 'a@example.com' };
const contract = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  in_set: 'true',
  in_set_normalised: 'true',
};

const checkRecord: LogRecordJson = {
  timeUnixNano: NOW,
  eventName: CHECK_EVENT,
  severityNumber: 9,
  severityText: 'INFO',
  attributes: attrs(contract),
};

// argcheck's other event: which text a tool_definition hash stands for.
const definitionRecord: LogRecordJson = {
  timeUnixNano: NOW,
  eventName: 'tool_argument_tool_definition',
  severityNumber: 9,
  severityText: 'INFO',
  attributes: attrs({
    tool: 'refund_order',
    tool_definition: '0a1b2c3d4e5f',
    tool_description: 'Refunds an order.',
    tool_input_schema: '{"type":"object"}',
  }),
};

const appRecord: LogRecordJson = {
  timeUnixNano: NOW,
  severityNumber: 9,
  body: { stringValue: 'refund issued' },
  attributes: attrs(secret),
};

describe('regression: a record under argcheck’s scope without its event name was not filtered', function () {
  this.timeout(60_000);
  let collector: RunningCollector;
  let records: { scope: string | undefined; record: LogRecordJson }[];

  before(async () => {
    collector = await startCollector();
    await collector.post(
      '/v1/logs',
      logsRequest({ 'service.name': 'refund-agent' }, [
        {
          scope: ARGCHECK_SCOPE,
          items: [
            {
              timeUnixNano: NOW,
              body: { stringValue: 'no event name' },
              attributes: attrs(secret),
            },
            { timeUnixNano: NOW, eventName: 'tool_argument_debug', attributes: attrs(secret) },
            checkRecord,
            definitionRecord,
          ],
        },
        { scope: 'refund-agent', items: [appRecord] },
      ]),
    );
    // The check record and the application's record travel in the same
    // request as the two others: once both are in the file, all four have
    // been through the pipeline.
    records = await collector.recordsWhen(
      'the check record and the application’s',
      (found) => found.length >= 3,
    );
  });

  after(() => collector?.stop());

  it('drops every record under argcheck’s scope that is not its check or tool-definition event', () => {
    const ours = records.filter((r) => r.scope === ARGCHECK_SCOPE);
    expect(ours).to.deep.equal([
      { scope: ARGCHECK_SCOPE, record: asExported(checkRecord) },
      { scope: ARGCHECK_SCOPE, record: asExported(definitionRecord) },
    ]);
    recordFigure(
      'collector-scope-without-event',
      `of 4 records under argcheck’s scope, the 2 without its event names dropped, ${ours.length} kept (its check and tool-definition events)`,
    );
  });

  it('leaves the application’s own record, authorization attribute and all, as it was', () => {
    const theirs = records.filter((r) => r.scope !== ARGCHECK_SCOPE);
    expect(theirs).to.deep.equal([{ scope: 'refund-agent', record: appRecord }]);
    recordFigure(
      'collector-scope-without-event',
      `the application’s ${theirs.length} record unchanged, \`authorization\` and all`,
    );
  });
});
