import { ExitCode, type CommandIo } from '../io.js';
import { formatCount } from '../report/format.js';
import { DEMO_HELP, parseDemoArgs } from './demo-args.js';
import type { DemoFigures } from './figures.js';
import { createLiveOutput } from './render/live-output.js';
import { renderPartition, renderSeries, renderStory } from './render/render-final.js';
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

function footer(figures: DemoFigures, logFile: string | undefined): string[] {
  const tools = Object.entries(figures.tools).map(
    ([tool, t]) =>
      `${tool} ${formatCount(t.attempts)} sent, ` +
      `${t.received === null ? '?' : formatCount(t.received)} reached the server`,
  );
  const logs = `${formatCount(figures.logRecords)} sampled log records (1 in 50 checks)`;
  return [
    `Calls: ${tools.join('; ')}.`,
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
