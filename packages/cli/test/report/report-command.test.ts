import { expect } from 'chai';
import { runCli } from '../../src/cli.js';
import type { Report } from '../../src/types.js';
import { captureIo } from '../helpers/capture-io.js';
import { otlpCheck, otlpLine, plainLine } from '../helpers/log-lines.js';
import { useTempDir } from '../helpers/temp-dir.js';

const member = { in_set: 'true', in_set_normalised: 'true' };

/** 10 refund checks over two files in both formats, plus a corrupt line and an unrelated event. */
function writeInputs(dir: ReturnType<typeof useTempDir>): string[] {
  const otlp = [
    otlpLine([
      ...Array.from({ length: 5 }, () => otlpCheck({ ...member, value: 'DAMAGED' })),
      otlpCheck({ in_set: 'false', in_set_normalised: 'true', shape: 'case', value: 'damaged' }),
      { eventName: 'http.request', attributes: { tool: 'x', argument: 'y' } },
    ]),
    '{"resourceLogs": [',
    otlpLine([
      otlpCheck({
        in_set: 'false',
        in_set_normalised: 'false',
        shape: 'invented',
        value: 'CUSTOMER_UNHAPPY',
      }),
    ]),
  ];
  const plain = [
    plainLine({ ...member, value: 'LATE' }),
    '',
    plainLine({
      in_set: 'false',
      in_set_normalised: 'false',
      shape: 'alias',
      value: 'charged twice',
    }),
    plainLine({
      in_set: 'false',
      in_set_normalised: 'false',
      shape: 'invented',
      value: 'CUSTOMER_UNHAPPY',
    }),
  ];
  return [
    dir.path('collector.jsonl', otlp.join('\n') + '\n'),
    dir.path('plain.jsonl', plain.join('\r\n')),
  ];
}

describe('argcheck report', () => {
  const dir = useTempDir();

  it('prints markdown over both formats, naming the corrupt line on stderr', async () => {
    const files = writeInputs(dir);
    const io = captureIo();
    const code = await runCli(['report', '--format', 'markdown', '--top', '3', ...files], io);
    expect(code).to.equal(0);
    expect(io.err()).to.equal(
      `${files[0]}:2: skipped: not JSON (${jsonError('{"resourceLogs": [')})\n`,
    );
    expect(io.out()).to.equal(`# argcheck report

10 check records from 2 files (1 corrupt line skipped, 1 other record ignored).

## \`refund_order.reason_code\` → \`refunds.reason_codes\`

| records | out of set | after normalisation | formatting tax | not checked |
| ---: | ---: | ---: | ---: | ---: |
| 10 | 40.0 % | 30.0 % | 10.0 pts | 0 |

### Emitted values (top 3 of 5)

| value | count | in set | shape |
| --- | ---: | --- | --- |
| \`"CUSTOMER_UNHAPPY"\` | 2 | no | invented |
| \`"charged twice"\` | 1 | no | alias |
| \`"damaged"\` | 1 | no | case |

6 records carry values not shown.

### Mismatch shapes

| shape | count | share of mismatches | share of calls |
| --- | ---: | ---: | ---: |
| case | 1 | 25.0 % | 10.0 % |
| alias | 1 | 25.0 % | 10.0 % |
| invented | 2 | 50.0 % | 20.0 % |
| **total** | 4 | 100.0 % | 40.0 % |
`);
  });

  it('prints the same figures as JSON', async () => {
    const files = writeInputs(dir);
    const io = captureIo();
    expect(await runCli(['report', '--format=json', '--top=1', ...files], io)).to.equal(0);
    expect(JSON.parse(io.out())).to.deep.equal({
      input: {
        files,
        unreadableFiles: [],
        lines: 7,
        corruptLines: 1,
        ignoredRecords: 1,
        recordsOverSeriesCap: 0,
      },
      arguments: [
        {
          tool: 'refund_order',
          argument: 'reason_code',
          set: 'refunds.reason_codes',
          records: 10,
          unchecked: 0,
          outOfSet: 4,
          outOfSetNormalised: 3,
          outOfSetRate: 0.4,
          normalisedRate: 0.3,
          formattingTax: 0.1,
          distinctValues: 5,
          values: [{ value: 'CUSTOMER_UNHAPPY', count: 2, inSetCount: 0, shape: 'invented' }],
          valuesNotShown: 8,
          valuesOverCap: 0,
          valuesNotCaptured: 0,
          shapes: [
            { shape: 'case', count: 1, shareOfMismatches: 0.25, shareOfCalls: 0.1 },
            { shape: 'alias', count: 1, shareOfMismatches: 0.25, shareOfCalls: 0.1 },
            { shape: 'invented', count: 2, shareOfMismatches: 0.5, shareOfCalls: 0.2 },
          ],
        },
      ],
    });
  });

  it('prints the text tables', async () => {
    const io = captureIo();
    const file = dir.path(
      'one.jsonl',
      [
        plainLine({ ...member, value: 'LATE' }),
        plainLine({ in_set: 'false', in_set_normalised: 'true', shape: 'format', value: ' LATE ' }),
      ].join('\n'),
    );
    expect(await runCli(['report', file], io)).to.equal(0);
    expect(io.out()).to
      .equal(`argcheck report: 2 check records from 1 file (0 corrupt lines skipped, 0 other records ignored)

refund_order.reason_code → refunds.reason_codes
  records              2
  out of set           50.0 % (1)
  after normalisation  0.0 % (0)
  formatting tax       50.0 pts

  emitted values (top 2 of 2)
  value     count  in set  shape
  " LATE "      1  no      format
  "LATE"        1  yes

  mismatch shape  count  of mismatches  of calls
  format              1        100.0 %    50.0 %
  total               1        100.0 %    50.0 %
`);
  });

  it('lists out-of-set values first, only those with --mismatches, and a number as a number', async () => {
    const file = dir.path(
      'assignees.jsonl',
      [
        ...Array.from({ length: 4 }, () => plainLine({ ...member, value: 'yes' })),
        plainLine({ ...member, value: 'no' }),
        plainLine({
          in_set: 'false',
          in_set_normalised: 'false',
          shape: 'not_string',
          value: '42',
        }),
        plainLine({ in_set: 'false', in_set_normalised: 'false', shape: 'invented', value: '42' }),
      ].join('\n'),
    );
    const values = async (...flags: string[]) => {
      const io = captureIo();
      expect(await runCli(['report', ...flags, file], io)).to.equal(0);
      const text = io.out();
      return text.slice(text.indexOf('  emitted values'), text.indexOf('\n\n  mismatch shape'));
    };
    expect(await values('--top', '3')).to.equal(`  emitted values (top 3 of 4)
  value  count  in set  shape
  "42"       1  no      invented
  42         1  no      not_string
  "yes"      4  yes
  1 more values: 1 records`);
    expect(await values('--mismatches')).to.equal(`  emitted values (top 2 of 4)
  value  count  in set  shape
  "42"       1  no      invented
  42         1  no      not_string
  2 more values: 5 records`);
  });

  it('reports an empty file as no records, exit 0', async () => {
    const io = captureIo();
    expect(await runCli(['report', dir.path('empty.jsonl', '')], io)).to.equal(0);
    expect(io.out()).to.equal(
      'argcheck report: 0 check records from 1 file (0 corrupt lines skipped, 0 other records ignored)\n',
    );
    expect(io.err()).to.equal('');
  });

  it('goes on past an unreadable file and exits 1 only when none could be read', async () => {
    const good = dir.path('good.jsonl', plainLine({ ...member, value: 'LATE' }));
    const missing = dir.path('missing.jsonl');
    const some = captureIo();
    expect(await runCli(['report', '--format', 'json', missing, good], some)).to.equal(0);
    expect((JSON.parse(some.out()) as Report).arguments[0]?.records).to.equal(1);
    const none = captureIo();
    expect(await runCli(['report', missing], none)).to.equal(1);
    expect(none.out()).to.equal('');
    expect(none.err()).to.match(/missing\.jsonl: cannot read: ENOENT/);
  });

  it('splits the figures --by model, and names each tool definition by its description', async () => {
    const model = (m: string) => ({ 'gen_ai.request.model': m });
    const lines: string[] = [];
    const definition = (hash: string, description: string) => ({
      eventName: 'tool_argument_tool_definition',
      attributes: {
        tool: 'refund_order',
        tool_definition: hash,
        tool_description: description,
        tool_input_schema: '{}',
      },
    });
    const check = (m: string, hash: string, inSet: boolean) =>
      otlpCheck({
        in_set: String(inSet),
        in_set_normalised: String(inSet),
        ...(inSet ? {} : { shape: 'invented' }),
        value: inSet ? 'LATE' : 'CUSTOMER_UNHAPPY',
        ...model(m),
        tool_definition: hash,
      } as never);
    lines.push(
      otlpLine([definition('aaaaaaaaaaaa', 'Refund an order.')]),
      otlpLine([
        check('gpt-old', 'aaaaaaaaaaaa', true),
        check('gpt-old', 'aaaaaaaaaaaa', true),
        check('gpt-old', 'aaaaaaaaaaaa', true),
        check('gpt-new', 'bbbbbbbbbbbb', false),
        check('gpt-new', 'bbbbbbbbbbbb', true),
      ]),
      plainLine({ in_set: 'true', in_set_normalised: 'true', value: 'LATE' }),
      JSON.stringify(definition('bbbbbbbbbbbb', 'Refund an order; codes listed.')),
    );
    const file = dir.path('attributed.jsonl', lines.join('\n') + '\n');
    const byModel = captureIo();
    expect(await runCli(['report', '--format', 'json', '--by', 'model', file], byModel)).to.equal(
      0,
    );
    const report = JSON.parse(byModel.out()) as Report;
    expect(report.arguments.map((a) => [a.by?.value, a.records, a.outOfSet])).to.deep.equal([
      ['(none)', 1, 0],
      ['gpt-new', 2, 1],
      ['gpt-old', 3, 0],
    ]);
    expect(report.arguments[0]?.by?.attribute).to.equal('gen_ai.request.model');
    expect(report.definitions).to.deep.equal([
      { tool: 'refund_order', toolDefinition: 'aaaaaaaaaaaa', description: 'Refund an order.' },
      {
        tool: 'refund_order',
        toolDefinition: 'bbbbbbbbbbbb',
        description: 'Refund an order; codes listed.',
      },
    ]);
    const text = captureIo();
    expect(await runCli(['report', '--by', 'tool-definition', file], text)).to.equal(0);
    expect(text.out()).to.include(
      'refund_order.reason_code → refunds.reason_codes [tool_definition=bbbbbbbbbbbb "Refund an order; codes listed."]',
    );
    expect(text.out()).to.include('[tool_definition=(none)]');
  });

  it('exits 2 on usage errors', async () => {
    for (const argv of [
      ['report'],
      ['report', '--format', 'xml', 'f'],
      ['report', '--top', '-1', 'f'],
      ['report', '--nope', 'f'],
      ['report', '--by', 'colour', 'f'],
    ]) {
      const io = captureIo();
      expect(await runCli(argv, io), argv.join(' ')).to.equal(2);
      expect(io.err()).to.match(/^argcheck: .+\nRun "argcheck --help" for usage\.\n$/s);
    }
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
