import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Report } from '../types.js';
import { createAggregator, type AggregatorOptions } from './aggregate.js';
import { parseLine } from './parse-line.js';
import { splitLines } from './split-lines.js';

export interface ReadReportOptions extends AggregatorOptions {
  /** Value rows per argument. */
  top: number;
  /** Only values that were out of the set at least once get a row. */
  mismatchesOnly?: boolean;
  /** Longer lines are reported corrupt and skipped, in bytes. */
  maxLineBytes: number;
  /** Told about every corrupt line and unreadable file; the reading goes on. */
  onProblem: (problem: InputProblem) => void;
  /** Opens a path; `-` is standard input. Injected by tests. */
  open?: (path: string) => Readable;
}

export type InputProblem =
  | { kind: 'corrupt_line'; file: string; line: number; reason: string }
  | { kind: 'unreadable_file'; file: string; reason: string };

/** Definition records kept, and the description text kept of each. */
const MAX_DEFINITIONS = 1_000;
const MAX_DESCRIPTION = 4_096;

/** A copy of the first `max` code units: a kept text must not keep its line alive. */
function ownText(text: string, max: number): string {
  return Buffer.from(text.slice(0, max), 'utf16le').toString('utf16le');
}

function defaultOpen(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path);
}

/** Streams every file once, in order, and aggregates the check records of all of them. */
export async function readReport(
  files: readonly string[],
  options: ReadReportOptions,
): Promise<Report> {
  const aggregator = createAggregator(options);
  /** By tool and hash: the first record of each wins (they are the same text). */
  const definitions = new Map<
    string,
    { tool: string; toolDefinition: string; description: string }
  >();
  const open = options.open ?? defaultOpen;
  const input: Report['input'] = {
    files: [...files],
    unreadableFiles: [],
    lines: 0,
    corruptLines: 0,
    ignoredRecords: 0,
    recordsOverSeriesCap: 0,
  };
  for (const file of files) {
    try {
      await splitLines(open(file), options.maxLineBytes, ({ number, text }) => {
        input.lines += 1;
        if (text !== undefined && text.trim() === '') return;
        const parsed =
          text === undefined
            ? { kind: 'corrupt' as const, reason: `longer than ${options.maxLineBytes} bytes` }
            : parseLine(text);
        if (parsed.kind === 'corrupt') {
          input.corruptLines += 1;
          options.onProblem({ kind: 'corrupt_line', file, line: number, reason: parsed.reason });
          return;
        }
        input.ignoredRecords += parsed.ignored;
        for (const record of parsed.records) aggregator.add(record);
        for (const definition of parsed.definitions ?? []) {
          const key = JSON.stringify([definition.tool, definition.toolDefinition]);
          if (!definitions.has(key) && definitions.size < MAX_DEFINITIONS) {
            definitions.set(key, {
              tool: ownText(definition.tool, 256),
              toolDefinition: ownText(definition.toolDefinition, 64),
              description: ownText(definition.description, MAX_DESCRIPTION),
            });
          }
        }
      });
    } catch (err) {
      // Lines read before a failure stay counted; the file is still named as unreadable.
      input.unreadableFiles.push(file);
      options.onProblem({ kind: 'unreadable_file', file, reason: (err as Error).message });
    }
  }
  input.recordsOverSeriesCap = aggregator.recordsOverSeriesCap;
  const report: Report = {
    input,
    arguments: aggregator.summarise(options.top, options.mismatchesOnly),
  };
  if (definitions.size > 0) {
    report.definitions = [...definitions.values()].sort(
      (a, b) =>
        (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) ||
        (a.toolDefinition < b.toolDefinition ? -1 : a.toolDefinition > b.toolDefinition ? 1 : 0),
    );
  }
  return report;
}
