// Run as a child process with --expose-gc:
//   node --expose-gc build/bench/lib/report-retained.js <field> <lines>
// Reads <lines> check records, each with a distinct 200 KB string in <field>
// (value, tool or shape), through @argcheck/cli's readReport, and prints as
// JSON how many heap bytes the report it returns retains once the input lines
// are garbage. A kept name or value that is a slice of its input line keeps the
// whole line alive: 200 KB each.
import { Readable } from 'node:stream';
import { readReport } from '@argcheck/cli';

const FIELDS = ['value', 'tool', 'shape'] as const;
type Field = (typeof FIELDS)[number];

const [field, count] = process.argv.slice(2) as [Field, string];
if (!FIELDS.includes(field)) throw new Error(`field must be one of ${FIELDS.join(', ')}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const lines = Number(count);

/** Distinct from its first characters on, 200,000 characters long. */
const long = (i: number): string => `${i}-`.padEnd(200_000, String.fromCharCode(97 + (i % 26)));

function* input(): Generator<string> {
  for (let i = 0; i < lines; i++) {
    const record = {
      tool: 'refund_order',
      argument: 'reason_code',
      set: 'refunds.reason_codes',
      in_set: 'false',
      in_set_normalised: 'false',
      shape: 'invented',
      value: `V${i}`,
      [field]: long(i),
    };
    yield `${JSON.stringify(record)}\n`;
  }
}

gc();
const before = process.memoryUsage().heapUsed;
const report = await readReport(['generated'], {
  top: lines,
  maxDistinctValues: 10_000,
  maxSeries: 1_000,
  maxValueLength: 256,
  maxLineBytes: 64 * 1024 * 1024,
  onProblem: (p) => {
    throw new Error(JSON.stringify(p));
  },
  open: () => Readable.from(input(), { objectMode: false }),
});
gc();
const retainedBytes = process.memoryUsage().heapUsed - before;
process.stdout.write(
  `${JSON.stringify({
    retainedBytes,
    series: report.arguments.length,
    records: report.arguments.reduce((n, a) => n + a.records, 0),
    keptLength: Math.max(
      ...report.arguments.flatMap((a) => [
        a.tool.length,
        ...a.values.map((v) => v.value.length),
        ...a.shapes.map((s) => s.shape.length),
      ]),
    ),
  })}\n`,
);
