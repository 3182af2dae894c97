// Run as a child process with --expose-gc:
//   node --expose-gc retained-by-aggregator.js <field> <lines>
// Counts <lines> records, each with a distinct 200 KB string in <field>
// (value, tool or shape), parsed from input lines the way `argcheck report`
// parses them, and prints as JSON how many heap bytes the aggregator retains
// once the lines are garbage. Kept keys that are slices of the input keep
// every line alive: 200 KB each.
import { createAggregator } from '../../src/report/aggregate.js';
import { parseLine } from '../../src/report/parse-line.js';
import { otlpCheck, otlpLine, plainLine, type Check } from './log-lines.js';

const FIELDS = ['value', 'tool', 'shape'] as const;
type Field = (typeof FIELDS)[number];

const [field, lines] = process.argv.slice(2) as [Field, string];
if (!FIELDS.includes(field)) throw new Error(`field must be one of ${FIELDS.join(', ')}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

/** Distinct per line from its first characters on, 200,000 characters long. */
const long = (i: number): string => `${i}-`.padEnd(200_000, String.fromCharCode(97 + (i % 26)));

function line(i: number): string {
  const check: Check = {
    in_set: 'false',
    in_set_normalised: 'false',
    shape: 'invented',
    value: `V${i}`,
    [field]: long(i),
  };
  // Both input forms: the collector's OTLP lines and plain records.
  return i % 2 === 0 ? otlpLine([otlpCheck(check)]) : plainLine(check);
}

const aggregator = createAggregator({
  maxDistinctValues: 10_000,
  maxSeries: 1_000,
  maxValueLength: 256,
});
gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < Number(lines); i += 1) {
  const parsed = parseLine(line(i));
  if (parsed.kind !== 'records') throw new Error(`line ${i}: ${parsed.reason}`);
  for (const record of parsed.records) aggregator.add(record);
}
gc();
const retainedBytes = process.memoryUsage().heapUsed - before;
const kept = aggregator.summarise(0);
process.stdout.write(
  JSON.stringify({
    retainedBytes,
    series: kept.length,
    records: kept.reduce((n, a) => n + a.records, 0),
  }) + '\n',
);
