import { expect } from 'chai';
import { parseLine } from '../../src/report/parse-line.js';
import { otlpCheck, otlpLine, plainLine } from '../helpers/log-lines.js';

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };

describe('parseLine', () => {
  it('reads check records out of an OTLP logs request and ignores other events', () => {
    const line = otlpLine([
      otlpCheck({ in_set: 'false', in_set_normalised: 'false', shape: 'invented', value: 'X' }),
      { eventName: 'something_else', attributes: { tool: 'refund_order', argument: 'a' } },
    ]);
    expect(parseLine(line)).to.deep.equal({
      kind: 'records',
      records: [{ ...refund, inSet: false, inSetNormalised: false, shape: 'invented', value: 'X' }],
      ignored: 1,
    });
  });

  it('accepts the event name as an attribute and non-string AnyValues', () => {
    const line = JSON.stringify({
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                {
                  attributes: [
                    { key: 'event.name', value: { stringValue: 'tool_argument_value_check' } },
                    { key: 'tool', value: { stringValue: 't' } },
                    { key: 'argument', value: { stringValue: 'a' } },
                    { key: 'in_set', value: { boolValue: true } },
                    { key: 'in_set_normalised', value: { boolValue: true } },
                    { key: 'value', value: { intValue: '42' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(parseLine(line)).to.deep.equal({
      kind: 'records',
      records: [
        {
          tool: 't',
          argument: 'a',
          set: '',
          inSet: true,
          inSetNormalised: true,
          shape: undefined,
          value: '42',
        },
      ],
      ignored: 0,
    });
  });

  it('reads plain records, flat or under attributes', () => {
    const flat = plainLine({ in_set: 'true', in_set_normalised: 'true', value: 'LATE' });
    const nested = JSON.stringify({
      eventName: 'tool_argument_value_check',
      attributes: {
        ...refund,
        in_set: false,
        in_set_normalised: true,
        shape: 'case',
        value: 'late',
      },
    });
    expect([parseLine(flat), parseLine(nested)]).to.deep.equal([
      {
        kind: 'records',
        records: [
          { ...refund, inSet: true, inSetNormalised: true, shape: undefined, value: 'LATE' },
        ],
        ignored: 0,
      },
      {
        kind: 'records',
        records: [{ ...refund, inSet: false, inSetNormalised: true, shape: 'case', value: 'late' }],
        ignored: 0,
      },
    ]);
  });

  it('ignores plain records of other events or without the check attributes', () => {
    const other = JSON.stringify({ eventName: 'other', tool: 't', argument: 'a', in_set: 'true' });
    const noCheck = JSON.stringify({ tool: 't', argument: 'a', message: 'hello' });
    const ignored = { kind: 'records', records: [], ignored: 1 };
    expect([parseLine(other), parseLine(noCheck)]).to.deep.equal([ignored, ignored]);
  });

  it('calls unparseable or misshapen lines corrupt', () => {
    expect([
      parseLine('{"tool": '),
      parseLine('[1, 2]'),
      parseLine('{"resourceLogs": {}}'),
      parseLine('{"resourceLogs": [{"scopeLogs": [7]}]}'),
    ]).to.deep.equal([
      { kind: 'corrupt', reason: `not JSON (${jsonError('{"tool": ')})` },
      { kind: 'corrupt', reason: 'not a JSON object' },
      { kind: 'corrupt', reason: 'not an OTLP logs request (line.resourceLogs is not an array)' },
      { kind: 'corrupt', reason: 'not an OTLP logs request (scopeLogs entry is not an object)' },
    ]);
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}
