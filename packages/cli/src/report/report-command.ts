import { parseArgs } from 'node:util';
import {
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_PROMPT_VERSION,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_TOOL_DEFINITION,
} from '@argcheck/instrumentation/semconv';
import type { ReportFormat } from '../types.js';
import { ExitCode, UsageError, type CommandIo } from '../io.js';
import { readReport, type InputProblem } from './read-report.js';
import { renderMarkdown } from './render-markdown.js';
import { renderText } from './render-text.js';
import { positiveInteger } from '../parse-flags.js';
import { printable, printableJson } from './printable.js';

export const REPORT_HELP = `Usage: argcheck report [options] FILE...

Reads sampled argcheck log records and prints, per tool and argument: records,
out-of-set rate, rate after normalisation, formatting tax, the emitted values
and the mismatch shapes.

FILE is the OpenTelemetry Collector file exporter's output (one OTLP JSON
ExportLogsServiceRequest per line) or JSON lines of plain records; both may be
mixed. Only records with event name tool_argument_value_check count. "-" reads
standard input.

Options:
  --format text|markdown|json  output format (default: text)
  --top N                      emitted values shown per argument (default: 20);
                               values out of the set come first
  --mismatches                 show only values that were out of the set
  --max-values N               distinct values kept per argument; later new
                               values are counted as "other" (default: 10000)
  --by ATTRIBUTE               split each argument's figures by an attribution
                               attribute: model, provider, agent,
                               prompt-version or tool-definition (a
                               tool definition is named by its description)
  -h, --help                   show this help

Corrupt lines are reported on stderr (file:line) and skipped. Exit codes:
0 report printed, 1 no file could be read, 2 usage error.
`;

/** The first few corrupt lines of a file are named; a file of garbage must not flood stderr. */
const MAX_PROBLEMS_PER_FILE = 100;

const FORMATS: readonly ReportFormat[] = ['text', 'markdown', 'json'];

/** `--by` names, and the attribute each stands for. */
const BY_ATTRIBUTES: Readonly<Record<string, string>> = Object.assign(Object.create(null), {
  model: ATTR_GEN_AI_REQUEST_MODEL,
  provider: ATTR_GEN_AI_PROVIDER_NAME,
  agent: ATTR_GEN_AI_AGENT_NAME,
  'prompt-version': ATTR_GEN_AI_PROMPT_VERSION,
  'tool-definition': ATTR_TOOL_DEFINITION,
}) as Record<string, string>;

function parseReportArgs(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'text' },
      top: { type: 'string', default: '20' },
      'max-values': { type: 'string', default: '10000' },
      by: { type: 'string' },
      mismatches: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const format = values.format as ReportFormat;
  if (!FORMATS.includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  }
  const by = values.by === undefined ? undefined : BY_ATTRIBUTES[values.by];
  if (values.by !== undefined && by === undefined) {
    throw new UsageError(
      `--by must be one of ${Object.keys(BY_ATTRIBUTES).join(', ')}, not "${values.by}"`,
    );
  }
  return {
    help: values.help,
    by,
    files: positionals,
    format,
    top: positiveInteger('--top', values.top, 0),
    mismatchesOnly: values.mismatches,
    maxDistinctValues: positiveInteger('--max-values', values['max-values'], 1),
  };
}

export async function reportCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseReportArgs(argv);
  if (args.help) {
    io.stdout.write(REPORT_HELP);
    return ExitCode.OK;
  }
  if (args.files.length === 0) throw new UsageError('argcheck report needs at least one FILE');

  const problemsPerFile = new Map<string, number>();
  const onProblem = (problem: InputProblem): void => {
    const seen = (problemsPerFile.get(problem.file) ?? 0) + 1;
    problemsPerFile.set(problem.file, seen);
    if (problem.kind === 'unreadable_file') {
      io.stderr.write(
        `argcheck report: ${printable(problem.file)}: cannot read: ${printable(problem.reason)}\n`,
      );
    } else if (seen <= MAX_PROBLEMS_PER_FILE) {
      io.stderr.write(
        `${printable(problem.file)}:${problem.line}: skipped: ${printable(problem.reason)}\n`,
      );
    }
  };
  const report = await readReport(args.files, {
    top: args.top,
    mismatchesOnly: args.mismatchesOnly,
    maxDistinctValues: args.maxDistinctValues,
    maxSeries: 1_000,
    maxValueLength: 256,
    maxLineBytes: 64 * 1024 * 1024,
    by: args.by,
    onProblem,
  });
  for (const [file, count] of problemsPerFile) {
    if (count > MAX_PROBLEMS_PER_FILE) {
      io.stderr.write(
        `${printable(file)}: ${count - MAX_PROBLEMS_PER_FILE} more problems not listed\n`,
      );
    }
  }
  if (report.input.unreadableFiles.length === args.files.length) return ExitCode.FAILED;

  if (args.format === 'json')
    io.stdout.write(printableJson(JSON.stringify(report, null, 2)) + '\n');
  else io.stdout.write(args.format === 'markdown' ? renderMarkdown(report) : renderText(report));
  return ExitCode.OK;
}
