/**
 * The pipeline of the end-to-end test (deploy/stack/src/pipeline.ts) on free
 * loopback ports, with the test's own webhook receiver and OTLP log backend.
 * Prometheus scrapes and evaluates every second; Alertmanager notifies one
 * second after the first alert of a group.
 */
import { Pipeline } from '../../../deploy/stack/src/pipeline.js';
import { freePorts } from '../../../deploy/stack/src/ports.js';
import { withSetting } from '../../../deploy/stack/src/config-copies.js';
import { killAllOnExit } from '../../../deploy/stack/src/processes.js';
import type { PrometheusClient } from '../../../deploy/stack/src/prometheus-client.js';
import {
  alertmanagerBinary,
  collectorBinary,
  prometheusBinary,
} from '../../../deploy/stack/src/programs.js';
import { OtlpLogSink } from '@argcheck/testing/otlp';
import { WebhookReceiver } from './http-servers.js';

export { rulesWithoutFor, replaceExactly } from '../../../deploy/stack/src/config-copies.js';
export type {
  RuleGroupInfo,
  RuleInfo,
  Sample,
} from '../../../deploy/stack/src/prometheus-client.js';
export { PrometheusClient } from '../../../deploy/stack/src/prometheus-client.js';

export interface StackOptions {
  /** Temporary directory that holds every copy, the storage and the log file. */
  dir: string;
}

export class PipelineStack {
  readonly webhook = new WebhookReceiver();
  readonly logSink = new OtlpLogSink();
  private pipeline: Pipeline | undefined;

  constructor(readonly options: StackOptions) {}

  private get started(): Pipeline {
    if (!this.pipeline) throw new Error('the stack has not started');
    return this.pipeline;
  }

  get prometheus(): PrometheusClient {
    return this.started.prometheus;
  }

  get logFile(): string {
    return this.started.logFile;
  }

  get rulesFile(): string {
    return this.started.rulesFile;
  }

  get otlpHttpUrl(): string {
    return this.started.otlpHttpUrl;
  }

  get alertmanagerUrl(): string {
    return this.started.alertmanagerUrl;
  }

  /** The tail of every program's output, for assertion messages. */
  diagnostics(): string {
    return this.pipeline?.diagnostics() ?? '';
  }

  async start(): Promise<void> {
    killAllOnExit();
    const binaries = {
      prometheus: prometheusBinary(),
      alertmanager: alertmanagerBinary(),
      collector: collectorBinary(),
    };
    const ports = await freePorts();
    await this.webhook.start();
    await this.logSink.start();
    this.pipeline = await Pipeline.start({
      dir: this.options.dir,
      ports,
      binaries,
      webhookUrl: this.webhook.url,
      logsEndpoint: this.logSink.baseUrl,
      // The test cannot wait 15 s per sample.
      scrapeInterval: '1s',
      evaluationInterval: '1s',
      alertmanager: (config) => withSetting(config, 'group_wait', '1s', 'alertmanager.yml'),
      prometheusFlags: [
        // Re-send firing alerts every second instead of every minute. A reload
        // (SIGHUP, for the `for: 0s` rules) also restarts Alertmanager
        // discovery; an alert that fires before discovery has found
        // Alertmanager again is dropped, and would otherwise be re-sent only a
        // minute later.
        '--rules.alert.resend-delay=1s',
      ],
    });
  }

  /** Replace the rules Prometheus loads and make it reload them (SIGHUP). */
  reloadRules(rules: string): void {
    this.started.reloadRules(rules);
  }

  async stop(): Promise<void> {
    await this.pipeline?.stop();
    await this.webhook.stop();
    await this.logSink.stop();
  }
}
