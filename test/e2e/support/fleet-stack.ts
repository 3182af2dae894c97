/**
 * The fleet test's pipeline, on loopback and free ports, every program
 * started the way the project's own files say:
 *
 *   processes ─▶ agent collectors (otel-collector.yaml + deploy/collector/agent.yaml)
 *             ─▶ gateway collector (otel-collector.yaml) ─▶ Prometheus exporter
 *                  ◀─scrape─ Prometheus (a copy of deploy/prometheus, rules included)
 *                  ◀─scrape─ vmagent ─remote write─▶ VictoriaMetrics ◀─ vmalert (the same rules)
 *                                         (deploy/victoriametrics/run.sh)
 *
 * The stores are started apart from the collectors (startStores), so that the
 * test can let them see the baseline first.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT, collectorBinary, hasCommand, requireCommand } from '../../pipeline/tools.js';
import { freePort, waitFor } from '../../helpers/wait.js';
import { ManagedProcess } from '../../../deploy/stack/src/processes.js';
import { PrometheusClient, replaceExactly } from './stack.js';

export const AGENT_COLLECTORS = 2;

interface CollectorPorts {
  grpc: number;
  http: number;
  self: number;
}

/** Environment without the caller's ARGCHECK_* and OTEL_* variables. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('ARGCHECK_') && !k.startsWith('OTEL_'),
      ),
    ),
    ...extra,
  };
}

async function collectorPorts(): Promise<CollectorPorts> {
  return { grpc: await freePort(), http: await freePort(), self: await freePort() };
}

async function ready(p: ManagedProcess, url: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    `${p.name} to be ready`,
    async () => {
      p.assertAlive();
      const res = await fetch(url);
      return res.ok ? true : undefined;
    },
    { timeoutMs, detail: () => p.describe() },
  );
}

export class FleetStack {
  readonly processes: ManagedProcess[] = [];
  gateway!: ManagedProcess;
  agents: ManagedProcess[] = [];
  gatewayPorts!: CollectorPorts & { exporter: number };
  agentPorts: CollectorPorts[] = [];
  prometheus!: PrometheusClient;
  victoria!: PrometheusClient;
  vmalert!: PrometheusClient;
  private notifier: Server | undefined;
  private notifierPort = 0;
  private collectorBin = '';

  constructor(private readonly dir: string) {}

  /** OTLP/HTTP base URL of agent collector `i`, or of the gateway. */
  otlpUrl(via: number | 'gateway'): string {
    const port = via === 'gateway' ? this.gatewayPorts.http : this.agentPorts[via]!.http;
    return `http://127.0.0.1:${port}`;
  }

  get exporterUrl(): string {
    return `http://127.0.0.1:${this.gatewayPorts.exporter}/metrics`;
  }

  diagnostics(): string {
    return this.processes.map((p) => p.describe()).join('\n');
  }

  private spawn(
    name: string,
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
  ): ManagedProcess {
    const cwd = join(this.dir, name);
    mkdirSync(cwd, { recursive: true });
    const p = new ManagedProcess(name, command, args, { cwd, env });
    this.processes.push(p);
    return p;
  }

  private async collector(
    name: string,
    configs: string[],
    env: Record<string, string>,
  ): Promise<ManagedProcess> {
    const args = configs.flatMap((c) => ['--config', join(REPO_ROOT, c)]);
    const p = this.spawn(name, this.collectorBin, args, cleanEnv(env));
    await waitFor(
      `${name} to start`,
      () => {
        p.assertAlive();
        return p.log.includes('Everything is ready') ? true : undefined;
      },
      { detail: () => p.describe() },
    );
    return p;
  }

  /** The gateway and the agent collectors. */
  async startCollectors(): Promise<void> {
    this.collectorBin = collectorBinary();
    this.gatewayPorts = { ...(await collectorPorts()), exporter: await freePort() };
    const common = (ports: CollectorPorts, name: string): Record<string, string> => ({
      ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
      ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
      ARGCHECK_OTELCOL_TELEMETRY_HOST: '127.0.0.1',
      ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
      ARGCHECK_LOG_FILE: join(this.dir, name, 'logs', 'argcheck-logs.jsonl'),
    });
    this.gateway = await this.collector('gateway', ['otel-collector.yaml'], {
      ...common(this.gatewayPorts, 'gateway'),
      ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${this.gatewayPorts.exporter}`,
    });
    for (let i = 0; i < AGENT_COLLECTORS; i++) {
      const ports = await collectorPorts();
      this.agentPorts.push(ports);
      this.agents.push(
        await this.collector(`agent-${i}`, ['otel-collector.yaml', 'deploy/collector/agent.yaml'], {
          ...common(ports, `agent-${i}`),
          ARGCHECK_GATEWAY_ENDPOINT: this.otlpUrl('gateway'),
        }),
      );
    }
  }

  /**
   * Prometheus (scraping the gateway every second) and VictoriaMetrics with
   * vmagent (likewise) and vmalert, started by deploy/victoriametrics/run.sh.
   */
  async startStores(): Promise<void> {
    requireCommand('prometheus');
    for (const program of ['victoria-metrics', 'vmagent', 'vmalert']) {
      if (!hasCommand(program)) {
        throw new Error(
          `${program} is not installed: run \`bash deploy/install-tools.sh\` (Debian package victoria-metrics)`,
        );
      }
    }
    await this.startNotifier();
    await this.startPrometheus();
    await this.startVictoria();
  }

  /** Where Prometheus and vmalert send alerts: accepts and forgets them (no alert fires here). */
  private async startNotifier(): Promise<void> {
    this.notifier = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => this.notifier!.listen(0, '127.0.0.1', resolve));
    const address = this.notifier.address();
    this.notifierPort = typeof address === 'object' && address ? address.port : 0;
  }

  private async startPrometheus(): Promise<void> {
    const promDir = join(this.dir, 'prometheus');
    cpSync(join(REPO_ROOT, 'deploy/prometheus'), promDir, { recursive: true });
    const configFile = join(promDir, 'prometheus.yml');
    let config = readFileSync(configFile, 'utf8');
    config = replaceExactly(
      config,
      /^(\s+)scrape_interval: \S+$/m,
      '$1scrape_interval: 1s',
      1,
      'prometheus.yml',
    );
    config = replaceExactly(
      config,
      /^(\s+)evaluation_interval: \S+$/m,
      '$1evaluation_interval: 1s',
      1,
      'prometheus.yml',
    );
    writeFileSync(configFile, config);
    const target = (port: number): string =>
      JSON.stringify([{ targets: [`127.0.0.1:${port}`], labels: {} }]);
    writeFileSync(
      join(promDir, 'targets/argcheck-collector.json'),
      target(this.gatewayPorts.exporter),
    );
    writeFileSync(join(promDir, 'targets/otelcol-self.json'), target(this.gatewayPorts.self));
    writeFileSync(join(promDir, 'targets/alertmanager.json'), target(this.notifierPort));
    const port = await freePort();
    const p = this.spawn(
      'prometheus',
      'prometheus',
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(this.dir, 'prometheus-data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      cleanEnv({}),
    );
    this.prometheus = new PrometheusClient(`http://127.0.0.1:${port}`);
    await ready(p, `${this.prometheus.baseUrl}/-/ready`);
  }

  private async startVictoria(): Promise<void> {
    const run = join(REPO_ROOT, 'deploy/victoriametrics/run.sh');
    const vmListen = `127.0.0.1:${await freePort()}`;
    const vm = this.spawn(
      'victoria-metrics',
      'bash',
      // Queries see samples up to a second old (default 30 s) and are not
      // cached: the test polls for data it has just sent.
      [run, 'victoria-metrics', '-search.latencyOffset=1s', '-search.disableCache'],
      cleanEnv({ ARGCHECK_VM_LISTEN: vmListen, ARGCHECK_VM_DATA: join(this.dir, 'vm-data') }),
    );
    this.victoria = new PrometheusClient(`http://${vmListen}`);
    await ready(vm, `${this.victoria.baseUrl}/health`);

    const agentListen = `127.0.0.1:${await freePort()}`;
    const vmagent = this.spawn(
      'vmagent',
      'bash',
      [run, 'vmagent'],
      cleanEnv({
        ARGCHECK_VM_LISTEN: vmListen,
        ARGCHECK_VMAGENT_LISTEN: agentListen,
        ARGCHECK_VMAGENT_DATA: join(this.dir, 'vmagent-data'),
        ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${this.gatewayPorts.exporter}`,
        ARGCHECK_SCRAPE_INTERVAL: '1s',
      }),
    );
    await ready(vmagent, `http://${agentListen}/health`);

    const alertListen = `127.0.0.1:${await freePort()}`;
    const vmalert = this.spawn(
      'vmalert',
      'bash',
      [run, 'vmalert'],
      cleanEnv({
        ARGCHECK_VM_LISTEN: vmListen,
        ARGCHECK_VMALERT_LISTEN: alertListen,
        ARGCHECK_VMALERT_INTERVAL: '1s',
        ARGCHECK_ALERTMANAGER_URL: `http://127.0.0.1:${this.notifierPort}`,
      }),
    );
    this.vmalert = new PrometheusClient(`http://${alertListen}`);
    await ready(vmalert, `${this.vmalert.baseUrl}/health`);
  }

  /** Stop every program by its process id (stores first), then the notifier. */
  async stop(): Promise<void> {
    for (const p of [...this.processes].reverse()) await p.stop();
    if (this.notifier) {
      this.notifier.closeAllConnections();
      await new Promise<void>((resolve) => this.notifier!.close(() => resolve()));
    }
  }
}
