import { expect } from 'chai';
import { join } from 'node:path';
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
import { REPO_ROOT, run } from '../tools.js';
import { recordFigure } from '@argcheck/testing/figures';

// Defect: a check record that carries its event name in the `event.name`
// attribute (older SDKs' way) was recognised by the collector, which then
// removed that attribute with the others outside the allow-list. The record
// left the collector with no event name at all, and `argcheck report` did not
// count it. The collector now moves the name into the record's event-name
// field, so every check record leaves it in one form.

const contract = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  in_set: 'false',
  in_set_normalised: 'false',
  shape: 'invented',
  value: 'CUSTOMER_UNHAPPY',
};

describe('regression: the event.name attribute was stripped from the record it identified', function () {
  this.timeout(60_000);
  let collector: RunningCollector;
  let record: LogRecordJson;

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
              severityNumber: 13,
              severityText: 'WARN',
              attributes: attrs({ ...contract, 'event.name': CHECK_EVENT, 'enduser.id': 'c-1' }),
            },
          ],
        },
      ]),
    );
    const records = await collector.recordsWhen('the check record', (found) => found.length >= 1);
    record = records[0]!.record;
  });

  after(() => collector?.stop());

  it('leaves with the event name in its field and only contract attributes', () => {
    expect(record).to.deep.equal(
      asExported({
        timeUnixNano: NOW,
        eventName: CHECK_EVENT,
        severityNumber: 13,
        severityText: 'WARN',
        attributes: attrs(contract),
      }),
    );
    recordFigure(
      'collector-event-name-attribute',
      `left with event name \`${record.eventName}\` and ${record.attributes?.length} attributes, the contract’s only`,
    );
  });

  it('is counted by argcheck report', () => {
    const result = run('node', [
      join(REPO_ROOT, 'packages/cli/build/src/bin.js'),
      'report',
      '--format',
      'json',
      collector.logFile,
    ]);
    expect(result.status, result.output).to.equal(0);
    const report = JSON.parse(result.stdout) as {
      arguments: { tool: string; argument: string; records: number; outOfSet: number }[];
    };
    expect(
      report.arguments.map(({ tool, argument, records, outOfSet }) => ({
        tool,
        argument,
        records,
        outOfSet,
      })),
    ).to.deep.equal([{ tool: 'refund_order', argument: 'reason_code', records: 1, outOfSet: 1 }]);
    recordFigure(
      'collector-event-name-attribute',
      `\`argcheck report\` counted ${report.arguments[0]?.records} of 1`,
    );
  });
});
