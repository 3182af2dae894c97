import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Report } from '../types.js';
import { createAggregator, type AggregatorOptions } from './aggregate.js';
import { parseLine } from './parse-line.js';
import { splitLines } from './split-lines.js';

export interface ReadReportOptions extends AggregatorOptions {
  /** Value rows per argument. */
  top: number;
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

function defaultOpen(path: string): Readable {
  return path === '-' ? process.stdin : createReadStream(path);
}

/** Streams every file once, in order, and aggregates the check records of all of them. */
export async function readReport(
  files: readonly string[],
  options: ReadReportOptions,
): Promise<Report> {
  const aggregator = createAggregator(options);
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
      });
    } catch (err) {
      // Lines read before a failure stay counted; the file is still named as unreadable.
      input.unreadableFiles.push(file);
      options.onProblem({ kind: 'unreadable_file', file, reason: (err as Error).message });
    }
  }
  input.recordsOverSeriesCap = aggregator.recordsOverSeriesCap;
  return { input, arguments: aggregator.summarise(options.top) };
}
