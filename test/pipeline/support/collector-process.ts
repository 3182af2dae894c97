/**
 * The real argcheck collector running otel-collector.yaml on free loopback
 * ports, configured only through its ARGCHECK_* variables, with the file
 * exporter writing into a temporary directory.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../../helpers/wait.js';
import { REPO_ROOT, collectorBinary } from '../tools.js';
import type { LogRecordJson } from './otlp-json.js';

/** One exported log record with the scope it was exported under. */
export interface ExportedRecord {
  scope: string | undefined;
  record: LogRecordJson;
}

export interface RunningCollector {
  /** POST an OTLP/JSON request to the OTLP/HTTP receiver; fails the test unless 200. */
  post(path: '/v1/metrics' | '/v1/logs', body: unknown): Promise<void>;
  /** Poll the Prometheus exporter until `ready(text)`; returns that text. */
  scrapeWhen(what: string, ready: (text: string) => boolean): Promise<string>;
  /** Poll the file exporter until `ready(records)`; returns every record written so far. */
  recordsWhen(
    what: string,
    ready: (records: ExportedRecord[]) => boolean,
  ): Promise<ExportedRecord[]>;
  /** The file exporter's output file (OTLP JSON lines). */
  logFile: string;
  /** The collector's stderr so far (for assertion messages). */
  stderr(): string;
  /** Still running (it exits on a bad configuration). */
  running(): boolean;
  stop(): Promise<void>;
}

function readRecords(logFile: string): ExportedRecord[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((line) => {
      const request = JSON.parse(line) as {
        resourceLogs: { scopeLogs: { scope?: { name?: string }; logRecords: LogRecordJson[] }[] }[];
      };
      return request.resourceLogs.flatMap((rl) =>
        rl.scopeLogs.flatMap((sl) =>
          sl.logRecords.map((record) => ({ scope: sl.scope?.name, record })),
        ),
      );
    });
}

export async function startCollector(): Promise<RunningCollector> {
  const bin = collectorBinary();
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-collector-'));
  const logFile = join(dir, 'logs', 'argcheck-logs.jsonl');
  const ports = {
    grpc: await freePort(),
    http: await freePort(),
    prom: await freePort(),
    self: await freePort(),
  };
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_'))),
    ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
    ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
    ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.prom}`,
    ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
    ARGCHECK_LOG_FILE: logFile,
    // ARGCHECK_OTLP_LOGS_ENDPOINT deliberately unset: the default must not
    // stop the file exporter.
  };
  const child = spawn(bin, ['--config', join(REPO_ROOT, 'otel-collector.yaml')], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitFor(
      'the collector to start',
      () => (stderr.includes('Everything is ready') ? true : undefined),
      {
        giveUp: () =>
          child.exitCode !== null
            ? new Error(`the collector exited (${child.exitCode}):\n${stderr}`)
            : undefined,
      },
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    async post(path, body) {
      const res = await fetch(`http://127.0.0.1:${ports.http}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, `${path}: ${await res.text()}\n${stderr}`).to.equal(200);
    },
    scrapeWhen(what, ready) {
      return waitFor(
        what,
        async () => {
          const text = await (await fetch(`http://127.0.0.1:${ports.prom}/metrics`)).text();
          return ready(text) ? text : undefined;
        },
        { detail: () => stderr },
      );
    },
    recordsWhen(what, ready) {
      return waitFor(
        what,
        () => {
          const records = readRecords(logFile);
          return ready(records) ? records : undefined;
        },
        { detail: () => stderr },
      );
    },
    logFile,
    stderr: () => stderr,
    running: () => child.exitCode === null && child.signalCode === null,
    stop,
  };
}
