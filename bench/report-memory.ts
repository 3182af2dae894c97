// Peak resident memory of `argcheck report` against its input: the `argcheck`
// bin runs in a child process per input (through a shell, so that the peak is
// its own: bench/lib/argcheck-bin.ts) and reports its own peak RSS as it exits. Inputs are generated into a
// temporary directory and removed: distinct 200 KB values (500, 1,000, 1,500
// lines), distinct 200 KB tool names, 1,000 tool/argument/set series of 1,000
// distinct values each, one 60 MB line of nested brackets, one 63 MB line of
// 21 million empty records, and collector lines
// of 50 records with 100,000 distinct values.
// `npm run bench` runs it; alone: npm run bench -- --only report-memory [-- --value-lines 1500]
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argcheckBin, runNode } from './lib/argcheck-bin.js';
import type { BenchOptions, BenchResult } from './lib/report.js';

const BAR_MB = 160;

interface Run {
  input: string;
  lines: number;
  /** Check records the report counted and corrupt lines it named, from its JSON output. */
  records: number;
  corruptLines: number;
  exitCode: number | null;
  peakMB: number;
  seconds: number;
}

interface ReportJson {
  input: { corruptLines: number };
  arguments: { records: number; unchecked: number }[];
}

const long = (i: number): string => `${i}-`.padEnd(200_000, String.fromCharCode(97 + (i % 26)));
const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const invented = (fields: Record<string, string>): string =>
  JSON.stringify({
    ...refund,
    in_set: 'false',
    in_set_normalised: 'false',
    shape: 'invented',
    ...fields,
  });

function otlpLine(records: Record<string, string>[]): string {
  const logRecords = records.map((attributes) => ({
    timeUnixNano: '1767225600000000000',
    eventName: 'tool_argument_value_check',
    attributes: Object.entries(attributes).map(([key, stringValue]) => ({
      key,
      value: { stringValue },
    })),
  }));
  return JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords }] }] });
}

export async function reportMemory(options: BenchOptions): Promise<BenchResult> {
  const valueLines = options.number('value-lines', 1_500);
  const bin = argcheckBin();
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-report-memory-'));
  const writeLines = async (
    name: string,
    lines: number,
    line: (i: number) => string,
  ): Promise<string> => {
    const path = join(dir, name);
    const out = createWriteStream(path);
    for (let i = 0; i < lines; i += 1) if (!out.write(line(i) + '\n')) await once(out, 'drain');
    out.end();
    await once(out, 'finish');
    return path;
  };
  const runs: Run[] = [];
  const report = async (input: string, lines: number, files: string[]): Promise<void> => {
    const child = await runNode([bin, 'report', '--format', 'json', ...files]);
    const json = child.status === 0 ? (JSON.parse(child.stdout) as ReportJson) : undefined;
    runs.push({
      input,
      lines,
      records: json?.arguments.reduce((sum, a) => sum + a.records + a.unchecked, 0) ?? 0,
      corruptLines: json?.input.corruptLines ?? 0,
      exitCode: child.status,
      peakMB: child.peakMB,
      seconds: child.seconds,
    });
  };

  let emptyNodeMB: number;
  try {
    emptyNodeMB = (await runNode(['-e', ''])).peakMB;
    // Thirds, so the same values are read as 1, 2 and 3 files: only the amount of input grows.
    const third = Math.ceil(valueLines / 3);
    const thirds: string[] = [];
    for (let part = 0; part < 3; part += 1) {
      thirds.push(
        await writeLines(`values-${part}.jsonl`, third, (i) =>
          invented({ value: long(part * third + i) }),
        ),
      );
    }
    for (const count of [1, 2, 3])
      await report('distinct 200 KB values', count * third, thirds.slice(0, count));
    for (const file of thirds) rmSync(file);

    const tools = await writeLines('tools.jsonl', 1_000, (i) =>
      invented({ tool: long(i), value: 'X' }),
    );
    await report('distinct 200 KB tool names', 1_000, [tools]);
    rmSync(tools);

    const wide = await writeLines('series.jsonl', 1_000_000, (i) =>
      invented({ tool: `tool_${i % 1_000}`, value: `${i}-`.padEnd(256, 'x') }),
    );
    await report('1,000 series × 1,000 distinct 256-character values', 1_000_000, [wide]);
    rmSync(wide);

    const levels = 30_000_000;
    const nested = await writeLines('nested.jsonl', 3, (i) =>
      i === 1 ? `${'['.repeat(levels)}${']'.repeat(levels)}` : invented({ value: 'X' }),
    );
    await report('a 60 MB line of nested brackets between two records', 3, [nested]);
    rmSync(nested);

    // 21 million empty records: JSON.parse of this line alone peaked at over 2 GB.
    const empties = 21_000_000;
    const emptyRecords = await writeLines('empty-records.jsonl', 3, (i) =>
      i === 1
        ? `{"resourceLogs":[{"scopeLogs":[{"logRecords":[${'{},'.repeat(empties - 1)}{}]}]}]}`
        : invented({ value: 'X' }),
    );
    await report('a 63 MB line of 21 million empty records between two records', 3, [emptyRecords]);
    rmSync(emptyRecords);

    const typical = await writeLines('collector.jsonl', 10_000, (line) =>
      otlpLine(
        Array.from({ length: 50 }, (_, j) => {
          const n = line * 50 + j;
          return n % 10 === 0
            ? {
                ...refund,
                in_set: 'false',
                in_set_normalised: 'false',
                shape: 'invented',
                value: `INVENTED_${(n * 7919) % 100_000}`,
              }
            : { ...refund, in_set: 'true', in_set_normalised: 'true', value: 'DAMAGED' };
        }),
      ),
    );
    await report('collector lines of 50 records, 100,000 distinct values', 10_000, [typical]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const fmt = (x: number, digits = 0): string =>
    x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const values = runs.find((r) => r.input === 'distinct 200 KB values' && r.lines >= valueLines);
  const nested = runs.find((r) => r.input.startsWith('a 60 MB line'));
  const empties = runs.find((r) => r.input.startsWith('a 63 MB line'));
  return {
    title: 'argcheck report: peak memory against the input',
    method:
      'The `argcheck` bin (`@argcheck/cli`) runs `report --format json` on each input in a child process, ' +
      'which writes its own `process.resourceUsage().maxRSS` as it exits; records and corrupt lines are ' +
      'read from its JSON output. Inputs are generated into a temporary directory: the value files are ' +
      `thirds of one set of distinct values, read as one, two and three files. An empty Node process peaks at ${fmt(emptyNodeMB)} MB.`,
    tables: [
      {
        head: [
          'input',
          'lines',
          'records counted',
          'corrupt lines',
          'exit',
          'peak RSS (MB)',
          'time (s)',
        ],
        rows: runs.map((r) => [
          r.input,
          fmt(r.lines),
          fmt(r.records),
          fmt(r.corruptLines),
          String(r.exitCode),
          fmt(r.peakMB),
          fmt(r.seconds, 1),
        ]),
      },
    ],
    bars: [
      {
        bar: `argcheck report, ${fmt(valueLines)} distinct 200 KB values: peak RSS under ${BAR_MB} MB`,
        figure: values ? `${fmt(values.peakMB)} MB` : 'not run',
        holds:
          values !== undefined &&
          values.exitCode === 0 &&
          values.records === values.lines &&
          values.peakMB < BAR_MB,
      },
      {
        bar: 'argcheck report, a 60 MB line nested 30,000,000 deep: refused, the records around it counted',
        figure: nested
          ? `${nested.corruptLines} line refused, ${nested.records} of 2 records, ${fmt(nested.peakMB)} MB`
          : 'not run',
        holds:
          nested !== undefined &&
          nested.exitCode === 0 &&
          nested.corruptLines === 1 &&
          nested.records === 2,
      },
      {
        bar: 'argcheck report, a 63 MB line of 21 million empty records: refused, the records around it counted, peak RSS under 5 × the line (320 MB)',
        figure: empties
          ? `${empties.corruptLines} line refused, ${empties.records} of 2 records, ${fmt(empties.peakMB)} MB`
          : 'not run',
        holds:
          empties !== undefined &&
          empties.exitCode === 0 &&
          empties.corruptLines === 1 &&
          empties.records === 2 &&
          empties.peakMB < 320,
      },
    ],
    raw: { runs, emptyNodeMB },
  };
}
