/**
 * The pipeline of the end-to-end test, on loopback and free ports: the
 * argcheck collector with otel-collector.yaml itself, Prometheus with a copy of
 * deploy/prometheus, Alertmanager with a copy of deploy/alertmanager, plus the
 * webhook receiver and an OTLP log backend.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, collectorBinary, hasCommand, requireCommand } from '../../pipeline/tools.js';
import { OtlpLogSink, WebhookReceiver } from './http-servers.js';
import { ManagedProcess } from './processes.js';
import { freePort, waitFor } from '../../helpers/wait.js';

/** The placeholder receiver URL in deploy/alertmanager/alertmanager.yml. */
export const WEBHOOK_PLACEHOLDER = 'http://127.0.0.1:9095/argcheck-alerts';

/** `text` with every match of `pattern` replaced; throws unless it matched exactly `count` times. */
export function replaceExactly(
  text: string,
  pattern: RegExp,
  replacement: string,
  count: number,
  what: string,
): string {
  const found = text.match(new RegExp(pattern.source, pattern.flags.replace('g', '') + 'g'));
  if ((found?.length ?? 0) !== count) {
    throw new Error(
      `expected ${count} match(es) of ${String(pattern)} in ${what}, found ${found?.length ?? 0}: ` +
        'the shipped file changed shape; update the end-to-end test',
    );
  }
  return text.replace(
    new RegExp(pattern.source, pattern.flags.replace('g', '') + 'g'),
    replacement,
  );
}

/**
 * The rules file with every alert's `for:` set to 0s and nothing else changed.
 * Throws when the file has no `for:` line for one of its alerts.
 */
export function rulesWithoutFor(rules: string): string {
  const alerts = rules.match(/^\s*- alert: /gm)?.length ?? 0;
  return replaceExactly(rules, /^(\s+)for: \S+$/m, '$1for: 0s', alerts, 'the rules file');
}

export interface StackPorts {
  otlpGrpc: number;
  otlpHttp: number;
  exporter: number;
  collectorSelf: number;
  prometheus: number;
  alertmanager: number;
}

/** Prometheus's HTTP API, as far as the test needs it. */
export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface RuleInfo {
  name: string;
  type: 'recording' | 'alerting';
  query: string;
  health: string;
  lastError?: string;
  duration?: number;
  state?: string;
  lastEvaluation: string;
  alerts?: { labels: Record<string, string>; state: string; value: string }[];
}

export interface RuleGroupInfo {
  name: string;
  file: string;
  lastEvaluation: string;
  rules: RuleInfo[];
}

export class PrometheusClient {
  constructor(readonly baseUrl: string) {}

  private async api<T>(path: string, params: Record<string, string> = {}): Promise<T> {
    const url = new URL(`/api/v1/${path}`, this.baseUrl);
    for (const [k, v] of Object.entries(params)) url.searchParams.append(k, v);
    const res = await fetch(url);
    const body = (await res.json()) as {
      status: string;
      data: T;
      error?: string;
      errorType?: string;
    };
    if (body.status !== 'success') {
      throw new Error(
        `Prometheus ${path} ${JSON.stringify(params)}: ${body.errorType}: ${body.error}`,
      );
    }
    return body.data;
  }

  /** Instant query; `time` in seconds since the epoch (default: now). */
  async query(expr: string, time?: number): Promise<Sample[]> {
    const params: Record<string, string> = { query: expr };
    if (time !== undefined) params.time = String(time);
    const data = await this.api<{ resultType: string; result: Sample[] }>('query', params);
    if (data.resultType !== 'vector') {
      throw new Error(`expected a vector from ${expr}, got ${data.resultType}`);
    }
    return data.result;
  }

  /** The single value of a query that returns one sample, or undefined when it returns none. */
  async scalar(expr: string): Promise<number | undefined> {
    const result = await this.query(expr);
    if (result.length > 1) throw new Error(`${expr} returned ${result.length} samples`);
    return result[0] ? Number(result[0].value[1]) : undefined;
  }

  async ruleGroups(): Promise<RuleGroupInfo[]> {
    return (await this.api<{ groups: RuleGroupInfo[] }>('rules')).groups;
  }

  async alerts(): Promise<{ labels: Record<string, string>; state: string; value: string }[]> {
    return (
      await this.api<{
        alerts: { labels: Record<string, string>; state: string; value: string }[];
      }>('alerts')
    ).alerts;
  }

  async labelValues(label: string, match?: string): Promise<string[]> {
    return this.api<string[]>(`label/${label}/values`, match ? { 'match[]': match } : {});
  }

  async labelNames(): Promise<string[]> {
    return this.api<string[]>('labels');
  }

  async activeAlertmanagers(): Promise<string[]> {
    const data = await this.api<{ activeAlertmanagers: { url: string }[] }>('alertmanagers');
    return data.activeAlertmanagers.map((a) => a.url);
  }
}

export interface StackOptions {
  /** Temporary directory that holds every copy, the storage and the log file. */
  dir: string;
}

export class PipelineStack {
  readonly webhook = new WebhookReceiver();
  readonly logSink = new OtlpLogSink();
  ports!: StackPorts;
  collector: ManagedProcess | undefined;
  prometheusProcess: ManagedProcess | undefined;
  alertmanager: ManagedProcess | undefined;
  prometheus!: PrometheusClient;
  /** The collector's file exporter output. */
  readonly logFile: string;
  /** The rules file inside the Prometheus copy (rewritten for the `for: 0s` phase). */
  readonly rulesFile: string;
  private readonly promDir: string;

  constructor(readonly options: StackOptions) {
    this.logFile = join(options.dir, 'collector', 'logs', 'argcheck-logs.jsonl');
    this.promDir = join(options.dir, 'prometheus');
    this.rulesFile = join(this.promDir, 'rules', 'argcheck.rules.yml');
  }

  get otlpHttpUrl(): string {
    return `http://127.0.0.1:${this.ports.otlpHttp}`;
  }

  get alertmanagerUrl(): string {
    return `http://127.0.0.1:${this.ports.alertmanager}`;
  }

  /** The tail of every program's output, for assertion messages. */
  diagnostics(): string {
    return [this.collector, this.prometheusProcess, this.alertmanager]
      .filter((p): p is ManagedProcess => p !== undefined)
      .map((p) => p.describe())
      .join('\n');
  }

  async start(): Promise<void> {
    requireCommand('prometheus');
    const alertmanagerBin = ['prometheus-alertmanager', 'alertmanager'].find(hasCommand);
    if (!alertmanagerBin) {
      throw new Error(
        'Alertmanager is not installed: run `bash deploy/install-tools.sh` (Debian package prometheus-alertmanager)',
      );
    }
    const collectorBin = collectorBinary();
    this.ports = {
      otlpGrpc: await freePort(),
      otlpHttp: await freePort(),
      exporter: await freePort(),
      collectorSelf: await freePort(),
      prometheus: await freePort(),
      alertmanager: await freePort(),
    };
    await this.webhook.start();
    await this.logSink.start();
    await this.startCollector(collectorBin);
    await this.startAlertmanager(alertmanagerBin);
    await this.startPrometheus();
  }

  private async startCollector(bin: string): Promise<void> {
    const dir = join(this.options.dir, 'collector');
    mkdirSync(dir, { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_')),
      ),
      ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${this.ports.otlpGrpc}`,
      ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${this.ports.otlpHttp}`,
      ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${this.ports.exporter}`,
      ARGCHECK_OTLP_LOGS_ENDPOINT: this.logSink.baseUrl,
      ARGCHECK_LOG_FILE: this.logFile,
      ARGCHECK_OTELCOL_TELEMETRY_HOST: '127.0.0.1',
      ARGCHECK_OTELCOL_TELEMETRY_PORT: String(this.ports.collectorSelf),
    };
    const collector = new ManagedProcess(
      'collector',
      bin,
      ['--config', join(REPO_ROOT, 'otel-collector.yaml')],
      { cwd: dir, env },
    );
    this.collector = collector;
    await waitFor(
      'the collector to start',
      () => {
        collector.assertAlive();
        return collector.log.includes('Everything is ready') ? true : undefined;
      },
      { detail: () => collector.describe() },
    );
  }

  private async startAlertmanager(bin: string): Promise<void> {
    const dir = join(this.options.dir, 'alertmanager');
    mkdirSync(join(dir, 'data'), { recursive: true });
    let config = readFileSync(join(REPO_ROOT, 'deploy/alertmanager/alertmanager.yml'), 'utf8');
    // The receiver's `url:` line (the placeholder also appears in comments).
    config = replaceExactly(
      config,
      new RegExp(
        `^(\\s+- url: )${WEBHOOK_PLACEHOLDER.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`,
        'm',
      ),
      `$1${this.webhook.url}`,
      1,
      'alertmanager.yml (webhook URL)',
    );
    // Notify one second after the first alert of a group instead of 30 s.
    config = replaceExactly(
      config,
      /^(\s+)group_wait: \S+$/m,
      '$1group_wait: 1s',
      1,
      'alertmanager.yml',
    );
    const configFile = join(dir, 'alertmanager.yml');
    writeFileSync(configFile, config);
    const am = new ManagedProcess(
      'alertmanager',
      bin,
      [
        `--config.file=${configFile}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${this.ports.alertmanager}`,
        '--cluster.listen-address=',
        '--log.level=info',
      ],
      { cwd: dir },
    );
    this.alertmanager = am;
    await waitFor(
      'Alertmanager to be ready',
      async () => {
        am.assertAlive();
        const res = await fetch(`${this.alertmanagerUrl}/-/ready`);
        return res.ok ? true : undefined;
      },
      { detail: () => am.describe() },
    );
  }

  private async startPrometheus(): Promise<void> {
    cpSync(join(REPO_ROOT, 'deploy/prometheus'), this.promDir, { recursive: true });
    const configFile = join(this.promDir, 'prometheus.yml');
    let config = readFileSync(configFile, 'utf8');
    // Scrape and evaluate every second: the test cannot wait 15 s per sample.
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
      join(this.promDir, 'targets/argcheck-collector.json'),
      target(this.ports.exporter),
    );
    writeFileSync(
      join(this.promDir, 'targets/otelcol-self.json'),
      target(this.ports.collectorSelf),
    );
    writeFileSync(join(this.promDir, 'targets/alertmanager.json'), target(this.ports.alertmanager));
    const prom = new ManagedProcess(
      'prometheus',
      'prometheus',
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(this.options.dir, 'prometheus-data')}`,
        `--web.listen-address=127.0.0.1:${this.ports.prometheus}`,
        // Re-send firing alerts every second instead of every minute. A reload
        // (SIGHUP, for the `for: 0s` rules) also restarts Alertmanager
        // discovery; an alert that fires before discovery has found
        // Alertmanager again is dropped, and would otherwise be re-sent only a
        // minute later.
        '--rules.alert.resend-delay=1s',
        '--log.level=info',
      ],
      { cwd: this.promDir },
    );
    this.prometheusProcess = prom;
    this.prometheus = new PrometheusClient(`http://127.0.0.1:${this.ports.prometheus}`);
    await waitFor(
      'Prometheus to be ready',
      async () => {
        prom.assertAlive();
        const res = await fetch(`${this.prometheus.baseUrl}/-/ready`);
        return res.ok ? true : undefined;
      },
      { timeoutMs: 30_000, detail: () => prom.describe() },
    );
  }

  /** Replace the rules Prometheus loads and make it reload them (SIGHUP). */
  reloadRules(rules: string): void {
    writeFileSync(this.rulesFile, rules);
    this.prometheusProcess?.signal('SIGHUP');
  }

  async stop(): Promise<void> {
    // Prometheus and Alertmanager first: nothing scrapes or notifies a stopped collector.
    for (const p of [this.prometheusProcess, this.alertmanager, this.collector]) {
      if (p) await p.stop();
    }
    await this.webhook.stop();
    await this.logSink.stop();
  }
}
