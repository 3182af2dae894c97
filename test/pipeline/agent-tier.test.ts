import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedProcess } from '../../deploy/stack/src/processes.js';
import { freePort, waitFor } from '../helpers/wait.js';
import { argcheckNamespace, parseExposition } from './support/exposition.js';
import { ARGCHECK_SCOPE, metricsRequest, sum } from './support/otlp-json.js';
import { REPO_ROOT, collectorBinary } from './tools.js';

// The agent tier (otel-collector.yaml + deploy/collector/agent.yaml) enforces
// the allow-list and the process identity on its own, before anything reaches
// the gateway: here its gateway is a bare collector with no processors at
// all (OTLP in, Prometheus exporter out), so whatever that exporter shows is
// what the agent forwarded.

const BARE = (http: number, exporter: number, self: number): string => `
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${http}
exporters:
  prometheus:
    endpoint: 127.0.0.1:${exporter}
    translation_strategy: UnderscoreEscapingWithSuffixes
    without_scope_info: true
service:
  pipelines:
    metrics:
      receivers: [otlp]
      exporters: [prometheus]
  telemetry:
    metrics:
      readers:
        - pull:
            exporter:
              prometheus:
                host: 127.0.0.1
                port: ${self}
`;

const refund = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };
const inSet = { ...refund, in_set: 'true', in_set_normalised: 'true' };

describe('pipeline: the agent tier (deploy/collector/agent.yaml)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-agent-tier-'));
  const started: ManagedProcess[] = [];
  let scrape = '';

  const start = async (name: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> => {
    const p = new ManagedProcess(name, collectorBinary(), args, { cwd: dir, env });
    started.push(p);
    await waitFor(`${name} to start`, () => {
      p.assertAlive();
      return p.log.includes('Everything is ready') ? true : undefined;
    });
  };

  before(async () => {
    const bare = { http: await freePort(), exporter: await freePort(), self: await freePort() };
    const bareConfig = join(dir, 'bare.yaml');
    writeFileSync(bareConfig, BARE(bare.http, bare.exporter, bare.self));
    await start('bare collector', ['--config', bareConfig], process.env);
    const agent = { grpc: await freePort(), http: await freePort(), self: await freePort() };
    await start(
      'agent collector',
      [
        '--config',
        join(REPO_ROOT, 'otel-collector.yaml'),
        '--config',
        join(REPO_ROOT, 'deploy/collector/agent.yaml'),
      ],
      {
        ...Object.fromEntries(
          Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_')),
        ),
        ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${agent.grpc}`,
        ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${agent.http}`,
        ARGCHECK_OTELCOL_TELEMETRY_PORT: String(agent.self),
        ARGCHECK_LOG_FILE: join(dir, 'agent-logs.jsonl'),
        ARGCHECK_GATEWAY_ENDPOINT: `http://127.0.0.1:${bare.http}`,
      },
    );
    const body = metricsRequest(
      // NodeSDK's default detectors: host.name and process.pid, no instance id.
      { 'service.name': 'refund-agent', 'host.name': 'h1', 'process.pid': 4242 },
      [
        {
          scope: ARGCHECK_SCOPE,
          items: [
            // Two points that differ only in a label outside the contract.
            sum('tool_argument_value_check', '{check}', [
              [4, { ...inSet, value: 'DAMAGED_ITEM' }],
              [5, { ...inSet, value: 'OTHER' }],
            ]),
            sum('tool_argument_emitted_values', '{value}', [[1, { ...refund, value: 'X' }]]),
          ],
        },
        {
          scope: 'refund-agent-metrics',
          items: [sum('app_requests', '{request}', [[7, { route: '/refund' }]])],
        },
      ],
    );
    const res = await fetch(`http://127.0.0.1:${agent.http}/v1/metrics`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.text()).to.equal(200);
    scrape = await waitFor(
      'the agent to forward to the bare collector',
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${bare.exporter}/metrics`)).text();
        return text.includes('app_requests_total') && text.includes('tool_argument_value_check')
          ? text
          : undefined;
      },
      { detail: () => started.map((p) => p.describe()).join('\n') },
    );
  });

  after(async () => {
    for (const p of started.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards only contract metrics with contract labels, merged, under an instance composed from host and pid', () => {
    expect(argcheckNamespace(scrape)).to.deep.equal([
      {
        name: 'tool_argument_value_check_total',
        labels: { ...inSet, job: 'refund-agent', instance: 'h1:4242' },
        value: 9,
      },
    ]);
  });

  it("passes the application's own metrics unchanged", () => {
    expect(parseExposition(scrape).filter((s) => s.name === 'app_requests_total')).to.deep.equal([
      {
        name: 'app_requests_total',
        labels: { route: '/refund', job: 'refund-agent', instance: 'h1:4242' },
        value: 7,
      },
    ]);
  });
});
