import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL('../../../', import.meta.url));
const examplesDir = fileURLToPath(new URL('./examples/', import.meta.url));

/** The fenced block after `<!-- example: NAME` in the package README: exactly what a reader copies. */
function example(name: string): string {
  const text = readFileSync(`${packageDir}README.md`, 'utf8');
  const marker = text.indexOf(`<!-- example: ${name} `);
  const block = /```js\n([\s\S]*?)```/.exec(text.slice(marker));
  if (marker < 0 || !block?.[1]) throw new Error(`README.md has no example ${name}`);
  return block[1];
}

function write(name: string, code: string): string {
  mkdirSync(examplesDir, { recursive: true });
  const file = `${examplesDir}${name}.mjs`;
  writeFileSync(file, code);
  return file;
}

interface Received {
  path: string;
  body: Buffer;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// The parts of OTLP/JSON export requests these tests read.
interface KeyValue {
  key: string;
  value: { stringValue?: string };
}
interface MetricsRequest {
  resourceMetrics: {
    scopeMetrics: {
      metrics: {
        name: string;
        sum?: { dataPoints: { attributes: KeyValue[]; asInt?: number; asDouble?: number }[] };
      }[];
    }[];
  }[];
}
interface LogsRequest {
  resourceLogs: {
    scopeLogs: { logRecords: { eventName?: string; attributes: KeyValue[] }[] }[];
  }[];
}
const attributesOf = (list: KeyValue[]): Record<string, string | undefined> =>
  Object.fromEntries(list.map((kv) => [kv.key, kv.value.stringValue]));

describe('package README examples', function () {
  this.timeout(30_000);
  let owner: Server;
  let collector: Server;
  let ownerUrl: string;
  let collectorUrl: string;
  const received: Received[] = [];

  before(async () => {
    owner = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE']));
    });
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
    });
    ownerUrl = await listen(owner);
    collectorUrl = await listen(collector);
  });
  beforeEach(() => (received.length = 0));
  after(async () => {
    for (const server of [owner, collector]) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  const env = () => ({
    ...process.env,
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_TRACES_EXPORTER: 'none',
  });

  it('register + dispatcher: counts both calls and logs the invented code over OTLP', async () => {
    const code = [
      example('register'),
      example('dispatcher'),
      // Flush now rather than on the exporters' schedule.
      'await meterProvider.forceFlush();\nawait loggerProvider.forceFlush();\ninst.close();\n',
    ]
      .join('\n')
      // The only edits: the owner is a loopback server, and every value is logged.
      .replace('http://refunds.internal', ownerUrl)
      .replace('checkedArguments: {', 'logSampleRatio: 1,\n  checkedArguments: {');
    const { stdout } = await run(process.execPath, [write('register-dispatcher', code)], {
      env: env(),
    });
    expect(stdout).to.equal('refunds.reason_codes: fresh, 4 values\n');

    const bodies = <T>(path: string): T[] =>
      received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString()) as T);
    const metrics = bodies<MetricsRequest>('/v1/metrics').flatMap((m) =>
      m.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)),
    );
    const checks = metrics
      .filter((m) => m.name === METRIC_TOOL_ARGUMENT_VALUE_CHECK)
      .flatMap((m) => m.sum?.dataPoints ?? [])
      .map((p) => ({
        attributes: attributesOf(p.attributes),
        value: Number(p.asInt ?? p.asDouble),
      }));
    const series = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
    // Every series of the configured argument is exported, at zero until it counts.
    expect(checks).to.have.deep.members([
      { attributes: { ...series, in_set: 'true', in_set_normalised: 'true' }, value: 1 },
      { attributes: { ...series, in_set: 'false', in_set_normalised: 'true' }, value: 0 },
      { attributes: { ...series, in_set: 'false', in_set_normalised: 'false' }, value: 1 },
    ]);
    const records = bodies<LogsRequest>('/v1/logs').flatMap((l) =>
      l.resourceLogs.flatMap((r) => r.scopeLogs.flatMap((s) => s.logRecords)),
    );
    expect(
      records.map((r) => ({ eventName: r.eventName, attributes: attributesOf(r.attributes) })),
    ).to.deep.equal([
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: {
          ...series,
          in_set: 'true',
          in_set_normalised: 'true',
          value: 'LATE',
          value_truncated: 'false',
          'gen_ai.conversation.id': 'conv-9',
          'gen_ai.tool.call.id': 'call-1',
        },
      },
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: {
          ...series,
          in_set: 'false',
          in_set_normalised: 'false',
          shape: 'invented',
          value: 'CUSTOMER_UNHAPPY',
          value_truncated: 'false',
          'gen_ai.conversation.id': 'conv-9',
          'gen_ai.tool.call.id': 'call-2',
        },
      },
    ]);
  });

  it('nodesdk: starts, and exports the value-set gauges over OTLP on shutdown', async () => {
    const code = `${example('nodesdk').replace('http://refunds.internal', ownerUrl)}\nawait sdk.shutdown();\n`;
    await run(process.execPath, [write('nodesdk', code)], { env: env() });
    const metrics = received.filter((r) => r.path === '/v1/metrics').map((r) => r.body.toString());
    expect(metrics.join('\n')).to.include('tool_argument_value_set_size');
  });

  for (const name of ['mcp-esm', 'mcp-manual']) {
    it(`${name}: parses as an ES module`, async () => {
      await run(process.execPath, ['--check', write(name, example(name))]);
    });
  }
});
