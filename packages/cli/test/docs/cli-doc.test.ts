import { expect } from 'chai';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { runCli } from '../../src/cli.js';
import { DEMO_HELP } from '../../src/demo/demo-args.js';
import { ExitCode } from '../../src/io.js';
import { REPORT_HELP } from '../../src/report/report-command.js';
import { captureIo } from '../helpers/capture-io.js';
import { CLI_DOC, exampleBlock } from '../helpers/markdown-block.js';
import { useTempDir } from '../helpers/temp-dir.js';
import type { Report } from '../../src/types.js';

describe('docs/cli.md', () => {
  const dir = useTempDir();

  it('shows the report example with the output the command prints', async () => {
    const file = dir.path('sample.jsonl', exampleBlock(CLI_DOC, 'report-input'));
    const io = captureIo();
    expect(await runCli(['report', file], io)).to.equal(0);
    expect(io.out()).to.equal(exampleBlock(CLI_DOC, 'report-output'));
    expect(io.err()).to.match(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6: skipped: not JSON \\(`),
    );
  });

  it('the app exporter it shows writes records that argcheck report reads', async () => {
    // Beside the compiled test, so that its imports resolve as in an app.
    const module = fileURLToPath(new URL('./app-log-exporter.mjs', import.meta.url));
    writeFileSync(module, exampleBlock(CLI_DOC, 'app-log-exporter'));
    type Exporter = new (path: string) => LogRecordExporter;
    const { JsonLinesLogExporter } = (await import(pathToFileURL(module).href)) as {
      JsonLinesLogExporter: Exporter;
    };
    rmSync(module);
    const file = dir.path('argcheck-logs.jsonl');
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter: new JsonLinesLogExporter(file) })],
    });
    const inst = new ToolArgumentInstrumentation({
      valueSets: { 'refunds.reason_codes': staticValueSet(['DAMAGED', 'LATE']) },
      checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
      mcp: { enabled: false },
      frameworks: { enabled: false },
      logSampleRatio: 1,
    });
    registerInstrumentations({
      instrumentations: [inst],
      loggerProvider,
      meterProvider: new MeterProvider(),
    });
    try {
      await inst.ready();
      for (const code of ['DAMAGED', 'DAMAGED', 'damaged', 'CUSTOMER_UNHAPPY']) {
        inst.check('refund_order', { reason_code: code });
      }
      loggerProvider.getLogger('app').emit({ eventName: 'app.started', body: 'up' });
      await loggerProvider.forceFlush();
    } finally {
      inst.disable();
      await loggerProvider.shutdown();
    }
    const io = captureIo();
    expect(await runCli(['report', '--format', 'json', file], io)).to.equal(0);
    const report = JSON.parse(io.out()) as Report;
    expect(report.input).to.deep.include({ lines: 5, corruptLines: 0, ignoredRecords: 1 });
    expect(report.arguments.map((a) => [a.tool, a.records, a.outOfSet, a.values])).to.deep.equal([
      [
        'refund_order',
        4,
        2,
        [
          { value: 'CUSTOMER_UNHAPPY', count: 1, inSetCount: 0, shape: 'invented' },
          { value: 'damaged', count: 1, inSetCount: 0, shape: 'case' },
          { value: 'DAMAGED', count: 2, inSetCount: 2 },
        ],
      ],
    ]);
  });

  it('documents every option of both commands and every exit code', () => {
    const doc = readFileSync(CLI_DOC, 'utf8');
    const flags = [...`${DEMO_HELP}\n${REPORT_HELP}`.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
    expect(flags.filter((flag) => !doc.includes(`\`${flag}`))).to.deep.equal([]);
    const codes = Object.values(ExitCode).filter((code) => !doc.includes(`| ${code} `));
    expect(codes).to.deep.equal([]);
  });
});
