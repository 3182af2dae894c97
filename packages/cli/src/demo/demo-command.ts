import { ExitCode, type CommandIo } from '../io.js';
import { formatCount } from '../report/format.js';
import { DEMO_HELP, parseDemoArgs } from './demo-args.js';
import type { DemoFigures, ToolFigures } from './figures.js';
import { createLiveOutput } from './render/live-output.js';
import {
  renderPartition,
  renderRepairExamples,
  renderSeries,
  renderSideBySide,
  renderStory,
} from './render/render-final.js';
import { renderTable, renderValueSets } from './render/render-live.js';
import { runDemo, type DemoRun } from './run-demo.js';

function otlpLine(otlp: DemoFigures['otlp']): string {
  if (!otlp) return 'Nothing left the process (no --otlp).';
  const { metrics, logs } = otlp;
  const line =
    `OTLP/HTTP to ${otlp.endpoint}: ${metrics.succeeded} metric and ${logs.succeeded} log ` +
    `exports delivered, ${metrics.failed + logs.failed} failed`;
  const error = logs.lastError ?? metrics.lastError;
  return error === undefined ? `${line}.` : `${line} (last error: ${error}).`;
}

/** Why a tool's calls sent and calls the servers received differ, from the figures. */
function callLine(tool: string, t: ToolFigures): string {
  const sent = `${tool}: ${formatCount(t.attempts)} sent`;
  if (t.received === null || t.refusedByServer === null) return `${sent}, ? reached the servers (a server could not say).`;
  const reasons: string[] = [];
  if (t.repairsStarted > 0) reasons.push(`${formatCount(t.repairsStarted)} refused by argcheck with a repair message, never sent (reject mode)`);
  if (t.refusedByServer > 0) {
    reasons.push(
      `${formatCount(t.refusedByServer)} refused by the server's own input schema before its handler ran` +
        (t.notString > 0 ? ` (argcheck counted ${formatCount(t.notString)} not_string values: a number or null where the schema says string)` : ''),
    );
  }
  const reached = `${formatCount(t.received)} reached the servers`;
  return reasons.length === 0 ? `${sent}, ${reached}.` : `${sent}, ${reached}: ${reasons.join('; ')}.`;
} // prettier-ignore

function footer(figures: DemoFigures, logFile: string | undefined): string[] {
  const logs = `${formatCount(figures.logRecords)} sampled log records (1 in 50 checks)`;
  return [
    'Calls, retries included:',
    ...Object.entries(figures.tools).map(([tool, t]) => `  ${callLine(tool, t)}`),
    logFile ? `${logs}, written to ${logFile}: try "argcheck report ${logFile}".` : `${logs}.`,
    otlpLine(figures.otlp),
  ];
}

function renderFinal(run: DemoRun, interactive: boolean, logFile?: string): string {
  const { figures, frame } = run;
  const sections: string[][] = [];
  // A terminal still shows the last live frame; plain output has only had progress lines.
  if (!interactive)
    sections.push(['Final figures', ...renderTable(frame), '', ...renderValueSets(frame)]);
  sections.push(renderStory(figures.phases));
  const sideBySide = renderSideBySide(figures);
  if (sideBySide.length > 0) sections.push(sideBySide);
  const repairs = renderRepairExamples(figures.repairExamples);
  if (repairs.length > 0) sections.push(repairs);
  for (const a of figures.arguments) sections.push(renderPartition(a));
  sections.push(renderSeries(figures.series));
  sections.push(footer(figures, logFile));
  if (run.interrupted) sections.push(['Interrupted: the figures cover the calls made so far.']);
  return `\n${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

export async function demoCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const args = parseDemoArgs(argv, process.env);
  if (args.help) {
    io.stdout.write(DEMO_HELP);
    return ExitCode.OK;
  }
  const liveStream = args.json ? io.stderr : io.stdout;
  const interactive = liveStream.isTTY === true;
  const live = createLiveOutput(liveStream, interactive);
  const stop = new AbortController();
  const onSigint = (): void => stop.abort();
  process.once('SIGINT', onSigint);
  let run: DemoRun;
  try {
    run = await runDemo(args, live, stop.signal);
  } finally {
    live.end();
    process.off('SIGINT', onSigint);
  }
  if (args.json) io.stdout.write(`${JSON.stringify(run.figures, null, 2)}\n`);
  else io.stdout.write(renderFinal(run, interactive, args.logFile));
  return run.interrupted ? ExitCode.INTERRUPTED : ExitCode.OK;
}
