/**
 * The pipeline on loopback: the argcheck collector with otel-collector.yaml
 * itself, Prometheus with a copy of deploy/prometheus, Alertmanager with a
 * copy of deploy/alertmanager/alertmanager.yml, all in one directory. The
 * local stack (`npm run stack`) and the end-to-end test both start it; they
 * differ only in the copies' few changed values.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alertmanagerWithWebhook, loopbackTarget, withSetting } from './config-copies.js';
import { ManagedProcess } from './processes.js';
import { PrometheusClient } from './prometheus-client.js';
import type { StackPorts } from './ports.js';
import { REPO_ROOT } from './programs.js';
import { waitFor } from './wait.js';

export interface PipelineOptions {
  /** Holds every copy, Prometheus's and Alertmanager's storage, and the collector's log file. */
  dir: string;
  ports: Omit<StackPorts, 'receiver'>;
  binaries: { collector: string; prometheus: string; alertmanager: string };
  /** Where Alertmanager posts argcheck's alerts. */
  webhookUrl: string;
  /** Base URL of an OTLP/HTTP log backend for the collector's otlp_http exporter. */
  logsEndpoint?: string;
  /** Prometheus's global scrape and evaluation intervals (the shipped 15 s when unset). */
  scrapeInterval?: string;
  evaluationInterval?: string;
  /** Rewrites the shipped rules file for this copy. */
  rules?: (shipped: string) => string;
  /** Rewrites the shipped alertmanager.yml (after the webhook URL is set). */
  alertmanager?: (shipped: string) => string;
  /** Extra Prometheus flags. */
  prometheusFlags?: readonly string[];
  /** Each line a program writes, with its name. */
  onLine?: (program: string, line: string) => void;
  /** Called as each program is started, before it is ready. */
  onStart?: (program: ManagedProcess) => void;
}

const SHIPPED_RULES = 'deploy/prometheus/rules/argcheck.rules.yml';

const exitedEarly = (p: ManagedProcess): Error | undefined =>
  p.alive ? undefined : new Error(`${p.name} exited early\n${p.describe()}`);

export class Pipeline {
  collector: ManagedProcess | undefined;
  alertmanager: ManagedProcess | undefined;
  prometheusProcess: ManagedProcess | undefined;
  readonly prometheus: PrometheusClient;
  /** The collector's file exporter output. */
  readonly logFile: string;
  /** The rules file inside the Prometheus copy. */
  readonly rulesFile: string;
  private readonly promDir: string;

  private constructor(readonly options: PipelineOptions) {
    this.logFile = join(options.dir, 'collector', 'logs', 'argcheck-logs.jsonl');
    this.promDir = join(options.dir, 'prometheus');
    this.rulesFile = join(this.promDir, 'rules', 'argcheck.rules.yml');
    this.prometheus = new PrometheusClient(`http://127.0.0.1:${options.ports.prometheus}`);
  }

  /** Starts the collector, Alertmanager and Prometheus; if one fails, stops those started and throws. */
  static async start(options: PipelineOptions): Promise<Pipeline> {
    const pipeline = new Pipeline(options);
    try {
      await pipeline.startCollector();
      await pipeline.startAlertmanager();
      await pipeline.startPrometheus();
    } catch (error) {
      await pipeline.stop();
      throw error;
    }
    return pipeline;
  }

  get otlpHttpUrl(): string {
    return `http://127.0.0.1:${this.options.ports.otlpHttp}`;
  }

  get alertmanagerUrl(): string {
    return `http://127.0.0.1:${this.options.ports.alertmanager}`;
  }

  get processes(): ManagedProcess[] {
    return [this.collector, this.alertmanager, this.prometheusProcess].filter(
      (p): p is ManagedProcess => p !== undefined,
    );
  }

  /** The tail of every program's output, for error messages. */
  diagnostics(): string {
    return this.processes.map((p) => p.describe()).join('\n');
  }

  private spawn(
    name: string,
    command: string,
    args: string[],
    cwd: string,
    env?: NodeJS.ProcessEnv,
  ) {
    const onLine = this.options.onLine;
    const started = new ManagedProcess(name, command, args, {
      cwd,
      env,
      onLine: onLine ? (line) => onLine(name, line) : undefined,
    });
    this.options.onStart?.(started);
    return started;
  }

  private async startCollector(): Promise<void> {
    const { ports } = this.options;
    const dir = join(this.options.dir, 'collector');
    mkdirSync(dir, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_')),
      ),
      ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.otlpGrpc}`,
      ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.otlpHttp}`,
      ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.exporter}`,
      ARGCHECK_LOG_FILE: this.logFile,
      ARGCHECK_OTELCOL_TELEMETRY_HOST: '127.0.0.1',
      ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.collectorSelf),
      ...(this.options.logsEndpoint
        ? { ARGCHECK_OTLP_LOGS_ENDPOINT: this.options.logsEndpoint }
        : {}),
    };
    const collector = this.spawn(
      'collector',
      this.options.binaries.collector,
      ['--config', join(REPO_ROOT, 'otel-collector.yaml')],
      dir,
      env,
    );
    this.collector = collector;
    await waitFor(
      'the collector to start',
      () => {
        collector.assertAlive();
        return collector.log.includes('Everything is ready') ? true : undefined;
      },
      { detail: () => collector.describe(), giveUp: () => exitedEarly(collector) },
    );
  }

  private async startAlertmanager(): Promise<void> {
    const dir = join(this.options.dir, 'alertmanager');
    mkdirSync(join(dir, 'data'), { recursive: true });
    const shipped = readFileSync(join(REPO_ROOT, 'deploy/alertmanager/alertmanager.yml'), 'utf8');
    const withWebhook = alertmanagerWithWebhook(shipped, this.options.webhookUrl);
    const config = this.options.alertmanager ? this.options.alertmanager(withWebhook) : withWebhook;
    const configFile = join(dir, 'alertmanager.yml');
    writeFileSync(configFile, config);
    const am = this.spawn(
      'alertmanager',
      this.options.binaries.alertmanager,
      [
        `--config.file=${configFile}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${this.options.ports.alertmanager}`,
        '--cluster.listen-address=',
        '--log.level=info',
      ],
      dir,
    );
    this.alertmanager = am;
    await waitFor(
      'Alertmanager to be ready',
      async () => {
        am.assertAlive();
        const res = await fetch(`${this.alertmanagerUrl}/-/ready`);
        return res.ok ? true : undefined;
      },
      { detail: () => am.describe(), giveUp: () => exitedEarly(am) },
    );
  }

  private async startPrometheus(): Promise<void> {
    const { ports } = this.options;
    cpSync(join(REPO_ROOT, 'deploy/prometheus'), this.promDir, { recursive: true });
    const configFile = join(this.promDir, 'prometheus.yml');
    let config = readFileSync(configFile, 'utf8');
    if (this.options.scrapeInterval) {
      config = withSetting(
        config,
        'scrape_interval',
        this.options.scrapeInterval,
        'prometheus.yml',
      );
    }
    if (this.options.evaluationInterval) {
      const value = this.options.evaluationInterval;
      config = withSetting(config, 'evaluation_interval', value, 'prometheus.yml');
    }
    writeFileSync(configFile, config);
    if (this.options.rules) {
      const shipped = readFileSync(join(REPO_ROOT, SHIPPED_RULES), 'utf8');
      writeFileSync(this.rulesFile, this.options.rules(shipped));
    }
    const targets = join(this.promDir, 'targets');
    writeFileSync(join(targets, 'argcheck-collector.json'), loopbackTarget(ports.exporter));
    writeFileSync(join(targets, 'otelcol-self.json'), loopbackTarget(ports.collectorSelf));
    writeFileSync(join(targets, 'alertmanager.json'), loopbackTarget(ports.alertmanager));
    const prom = this.spawn(
      'prometheus',
      this.options.binaries.prometheus,
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(this.options.dir, 'prometheus-data')}`,
        `--web.listen-address=127.0.0.1:${ports.prometheus}`,
        ...(this.options.prometheusFlags ?? []),
        '--log.level=info',
      ],
      this.promDir,
    );
    this.prometheusProcess = prom;
    await waitFor(
      'Prometheus to be ready',
      async () => {
        prom.assertAlive();
        const res = await fetch(`${this.prometheus.baseUrl}/-/ready`);
        return res.ok ? true : undefined;
      },
      { timeoutMs: 30_000, detail: () => prom.describe(), giveUp: () => exitedEarly(prom) },
    );
  }

  /** Replace the rules Prometheus loads and make it reload them (SIGHUP). */
  reloadRules(rules: string): void {
    writeFileSync(this.rulesFile, rules);
    this.prometheusProcess?.signal('SIGHUP');
  }

  /** Stops every program started, Prometheus first: nothing then scrapes or notifies a stopped one. */
  async stop(): Promise<void> {
    for (const p of [this.prometheusProcess, this.alertmanager, this.collector]) {
      if (p) await p.stop();
    }
  }
}
