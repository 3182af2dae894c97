// Telemetry faults and cardinality floods, through the real instrumentation
// and OpenTelemetry SDK.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import type { CheckMode } from '@argcheck/core';
import { settle } from '@argcheck/testing/clock';
import { seededRandom } from '../lib/ids.js';
import { num } from '../lib/report.js';
import {
  CHECKED,
  code,
  callsChanged,
  instrumented,
  nsPerCallSideBySide,
  refunds,
  type Providers,
} from './harness.js';
import { test, type FaultRow } from './table.js';

const FAULTS_TEST = 'packages/instrumentation/test/telemetry/faults.test.ts';

function boom(): never {
  throw new Error('telemetry is broken');
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Outcomes of a fixed mix of calls, in one mode, through an instrumentation. */
async function outcomesOf(providers: Providers, mode: CheckMode): Promise<string> {
  const t = instrumented(
    { valueSets: refunds(), checkedArguments: CHECKED, mode, logSampleRatio: 1 },
    providers,
  );
  await t.inst.ready();
  const values = ['LATE', 'damaged', 'CUSTOMER_UNHAPPY', 7, 'Not As Described'];
  const outcomes = [];
  for (let i = 0; i < 1_000; i++) {
    outcomes.push(t.inst.check('refund_order', { reason_code: values[i % values.length] }));
  }
  await t.close();
  return JSON.stringify(outcomes);
}

export const telemetryFaults: FaultRow[] = [
  {
    area: 'Telemetry faults',
    fault: 'The meter and logger providers throw (on every call, or when asked for a meter/logger)',
    expected:
      'Calls are exactly what they would be with working telemetry, in every mode; nothing is thrown or rejected.',
    provedBy: [
      test(FAULTS_TEST, 'never changes a call (observe): throwing meters and loggers'),
      test(FAULTS_TEST, 'never changes a call (normalise): throwing meters and loggers'),
      test(FAULTS_TEST, 'never changes a call (reject): throwing meters and loggers'),
    ],
    async measure() {
      const throwingMeter = new Proxy({}, { get: () => boom });
      const broken: Providers[] = [
        {
          meterProvider: { getMeter: () => throwingMeter },
          loggerProvider: { getLogger: () => ({ emit: boom }) },
        },
        { meterProvider: { getMeter: boom }, loggerProvider: { getLogger: boom } },
      ];
      let differ = 0;
      let n = 0;
      for (const mode of ['observe', 'normalise', 'reject'] as const) {
        const reference = await outcomesOf({}, mode);
        for (const providers of broken) {
          n += 1_000;
          if ((await outcomesOf(providers, mode)) !== reference) differ += 1_000;
        }
      }
      return {
        figure: `${differ} of ${num(n)} outcomes differ from working telemetry`,
        data: { differ, n },
      };
    },
  },
  {
    area: 'Telemetry faults',
    fault: 'The OTLP endpoint is gone (exporters pointed at a closed port)',
    expected:
      'Exports fail in the background; calls are unchanged, checks cost what they did, and no promise rejects unhandled.',
    provedBy: [
      test(
        FAULTS_TEST,
        'never changes a call, nor rejects unhandled, with OTLP exporters pointed at a closed port',
      ),
    ],
    async measure() {
      const rejections: unknown[] = [];
      const onRejection = (r: unknown) => rejections.push(r);
      process.on('unhandledRejection', onRejection);
      const port = await closedPort();
      const meterProvider = new MeterProvider({
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({
              url: `http://127.0.0.1:${port}/v1/metrics`,
              timeoutMillis: 200,
            }),
            exportIntervalMillis: 200,
            exportTimeoutMillis: 200,
          }),
        ],
      });
      const loggerProvider = new LoggerProvider({
        processors: [
          new BatchLogRecordProcessor({
            exporter: new OTLPLogExporter({
              url: `http://127.0.0.1:${port}/v1/logs`,
              timeoutMillis: 200,
            }),
            scheduledDelayMillis: 100,
          }),
        ],
      });
      // The healthy one exports nowhere: a pull reader, and records counted and dropped.
      const healthy = instrumented({ valueSets: refunds(), checkedArguments: CHECKED });
      const failing = instrumented(
        { valueSets: refunds(), checkedArguments: CHECKED },
        { meterProvider, loggerProvider },
      );
      await healthy.inst.ready();
      await failing.inst.ready();
      const args = [0, 1, 2, 3, 4, 5].map((i) => ({ reason_code: code(i) }));
      const { a: nsHealthy, b: nsFailing } = nsPerCallSideBySide(
        (i) => healthy.inst.check('refund_order', args[i % 6]),
        (i) => failing.inst.check('refund_order', args[i % 6]),
      );
      await meterProvider.forceFlush().catch(() => undefined);
      await loggerProvider.forceFlush().catch(() => undefined);
      await sleep(300);
      await settle();
      await healthy.close();
      await failing.close();
      process.off('unhandledRejection', onRejection);
      return {
        figure: `${rejections.length} unhandled rejections; check ${num(nsFailing)} ns with exports failing, ${num(nsHealthy)} ns without exporters (median, side by side)`,
        data: { rejections: rejections.length, nsFailing, nsHealthy },
      };
    },
  },
  {
    area: 'Telemetry faults',
    fault: '`redactValue` throws',
    expected:
      'Fail closed: the value is left out of the record; the record and the call are otherwise unchanged; one warning.',
    provedBy: [
      test(
        'packages/instrumentation/test/logs/check-records.test.ts',
        'pass values through redactValue before truncation; undefined or a throw leaves the value out',
      ),
    ],
    async measure() {
      const records: Record<string, unknown>[] = [];
      const keep = {
        onEmit: (record: { attributes: Record<string, unknown> }) =>
          records.push(record.attributes),
        forceFlush: () => Promise.resolve(),
        shutdown: () => Promise.resolve(),
      };
      const t = instrumented(
        { valueSets: refunds(), checkedArguments: CHECKED, logSampleRatio: 1, redactValue: boom },
        { loggerProvider: new LoggerProvider({ processors: [keep] }) },
      );
      await t.inst.ready();
      const inputs = Array.from({ length: 1_000 }, (_, i) => ({
        reason_code: i % 2 ? 'LATE' : 'X',
      }));
      const changed = callsChanged(
        inputs.map((a) => t.inst.check('refund_order', a)),
        inputs,
      );
      await t.close();
      const withValue = records.filter((attributes) => 'value' in attributes).length;
      return {
        figure: `${num(records.length)} records, ${withValue} with a value; ${changed} of 1,000 calls changed`,
        data: { records: records.length, withValue, changed },
      };
    },
  },
];

export const floods: FaultRow[] = [
  {
    area: 'Cardinality floods',
    fault:
      'A cardinality flood: 200,000 distinct invented values, and model-invented tool and argument names',
    expected:
      'No new series (attribute values come only from configuration); the values appear only in sampled log records (1 in 50).',
    provedBy: [
      test(
        'packages/instrumentation/test/cardinality-flood.test.ts',
        '100,000 distinct invented values add no series; values appear only in sampled log records',
      ),
      test(
        'packages/instrumentation/test/telemetry/check-counters.test.ts',
        'never give a tool or argument the configuration does not name a series',
      ),
      { benchmark: 'flood-memory' },
    ],
    async measure() {
      const t = instrumented({
        valueSets: refunds(),
        checkedArguments: CHECKED,
        random: seededRandom(5),
      });
      await t.inst.ready();
      t.inst.check('refund_order', { reason_code: 'WARMUP' });
      const before = (await t.collect()).series;
      const emittedBefore = t.logs.emitted;
      const N = 200_000;
      for (let i = 0; i < N; i++) {
        const v = `INVENTED_${i.toString(36)}`;
        t.inst.check('refund_order', { reason_code: v, [v]: v });
        if (i % 100 === 0) t.inst.check(`tool_${v}`, { reason_code: v });
      }
      const after = (await t.collect()).series;
      const records = t.logs.emitted - emittedBefore;
      await t.close();
      const added = Object.keys(after).reduce((n, k) => n + (after[k] ?? 0) - (before[k] ?? 0), 0);
      return {
        figure: `${added} series added; ${num(records)} log records for ${num(N)} values (1 in 50 is ${num(N / 50)})`,
        data: { added, records, before, after },
      };
    },
  },
  {
    area: 'Cardinality floods',
    fault: 'An MCP server whose catalog has 200 tools with string enums',
    expected:
      'At most `mcp.maxCheckedArguments` derived arguments are checked (and become series); the rest are skipped, said once.',
    provedBy: [
      test(
        'packages/instrumentation/test/catalog/derived-sets.test.ts',
        'checks at most maxCheckedArguments derived arguments, over all catalogs, and says so once each',
      ),
      test(
        'packages/instrumentation/test/catalog/derive-catalog.test.ts',
        'caps derived arguments, keeping the same ones whatever order the server lists tools in',
      ),
    ],
    async measure() {
      const t = instrumented({ mcp: { enabled: false, maxCheckedArguments: 20 } });
      const server = new McpServer({ name: 'big-catalog', version: '1.0.0' });
      for (let i = 0; i < 200; i++) {
        server.registerTool(
          `tool_${i}`,
          { inputSchema: { mode: z.enum([`A${i}`, `B${i}`, `C${i}`]) } },
          () => ({ content: [{ type: 'text', text: 'ok' }] }),
        );
      }
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'reliability', version: '1.0.0' });
      t.inst.instrumentMcpClient(client);
      await client.connect(clientSide);
      await client.listTools();
      for (let i = 0; i < 200; i++)
        await client.callTool({ name: `tool_${i}`, arguments: { mode: `X${i}` } });
      const { series, sum } = await t.collect();
      await client.close();
      await server.close();
      await t.close();
      const checked = sum('tool_argument_value_check');
      return {
        figure: `${checked} of 200 calls checked; ${series.tool_argument_value_check} \`tool_argument_value_check\` series (budget 20)`,
        data: { series, checked },
      };
    },
  },
];
