// What the fault measurements run on: the real provider, checker and
// instrumentation, a fake clock where time matters, a loopback owner whose
// behaviour a measurement sets, and real SDK providers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet, type CheckOutcome } from '@argcheck/core';
import {
  ToolArgumentInstrumentation,
  type ToolArgumentInstrumentationConfig,
} from '@argcheck/instrumentation';
import { median, nowNs } from '../lib/stats.js';
import { countingProcessor } from '../lib/telemetry.js';
import { distinctValues, PullReader, seriesCounts, sumBy, sumOf } from '@argcheck/testing/metrics';

export const CODES = [
  'DAMAGED',
  'DUPLICATE_CHARGE',
  'LATE',
  'NOT_AS_DESCRIBED',
  'OTHER',
  'WRONG_ITEM',
];
export const CHECKED = { refund_order: { reason_code: 'refunds' } };
export const code = (i: number): string => CODES[i % CODES.length] ?? 'LATE';
/** The refund codes as the one static set of `CHECKED`. */
export const refunds = () => ({ refunds: staticValueSet(CODES) });

export type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export interface LoopbackOwner {
  url: string;
  stats: { requests: number };
  /** Sets what every request gets from now on. */
  behave(fn: Behaviour): void;
  close(): Promise<void>;
}

/** A loopback owner of one set at `url`, serving the six codes until told otherwise. */
export async function loopbackOwner(): Promise<LoopbackOwner> {
  const stats = { requests: 0 };
  let behaviour: Behaviour = (_req, res) => json(res, 200, CODES);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    stats.requests += 1;
    behaviour(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/value-sets/refunds`,
    stats,
    behave(fn) {
      behaviour = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface Collected {
  /** Data points per argcheck instrument. */
  series: Record<string, number>;
  /** One counter's total. */
  sum: (name: string) => number;
  /** One counter's totals by the value of an attribute. */
  by: (name: string, attribute: string) => Record<string, number>;
  /** The values an attribute takes on one instrument. */
  distinct: (name: string, attribute: string) => Set<string>;
}

export interface Instrumented {
  inst: ToolArgumentInstrumentation;
  logs: { readonly emitted: number };
  collect(): Promise<Collected>;
  close(): Promise<void>;
}

/** Providers to register with, standing in for working ones (even broken ones). */
export interface Providers {
  meterProvider?: unknown;
  loggerProvider?: unknown;
}

/** An instrumentation registered with a real MeterProvider (pull) and LoggerProvider (counting). */
export function instrumented(
  config: ToolArgumentInstrumentationConfig,
  providers: Providers = {},
): Instrumented {
  const reader = new PullReader();
  const logs = countingProcessor();
  type Registration = Parameters<typeof registerInstrumentations>[0];
  const meterProvider = (providers.meterProvider ??
    new MeterProvider({ readers: [reader] })) as NonNullable<Registration['meterProvider']>;
  const loggerProvider = (providers.loggerProvider ??
    new LoggerProvider({ processors: [logs] })) as NonNullable<Registration['loggerProvider']>;
  const inst = new ToolArgumentInstrumentation({ mcp: { enabled: false }, ...config });
  const unregister = registerInstrumentations({
    instrumentations: [inst],
    meterProvider,
    loggerProvider,
  });
  const shutdown = async (provider: unknown) => {
    // A broken provider may not even have shutdown().
    await Promise.resolve()
      .then(() => (provider as { shutdown(): Promise<void> }).shutdown())
      .catch(() => undefined);
  };
  return {
    inst,
    logs,
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return {
        series: seriesCounts(resourceMetrics),
        sum: (name) => sumOf(resourceMetrics, name),
        by: (name, attribute) => sumBy(resourceMetrics, name, attribute),
        distinct: (name, attribute) => distinctValues(resourceMetrics, name, attribute),
      };
    },
    async close() {
      unregister();
      inst.close();
      await shutdown(meterProvider);
      await shutdown(loggerProvider);
    },
  };
}

/** Median ns per call of `fn(i)` over batches of 1,000 (after one batch of warm-up). */
export function nsPerCall(fn: (i: number) => unknown, batches = 30): number {
  for (let i = 0; i < 1_000; i++) fn(i);
  const samples: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = nowNs();
    for (let i = 0; i < 1_000; i++) fn(i);
    samples.push((nowNs() - t0) / 1_000);
  }
  return median(samples);
}

/** Median ns per call of `a(i)` and of `b(i)`, measured in alternating batches of 1,000. */
export function nsPerCallSideBySide(
  a: (i: number) => unknown,
  b: (i: number) => unknown,
  batches = 40,
): { a: number; b: number } {
  const out = { a: [] as number[], b: [] as number[] };
  const variants = [
    ['a', a],
    ['b', b],
  ] as const;
  for (let i = 0; i < 2_000; i++) {
    a(i);
    b(i);
  }
  for (let r = 0; r < batches; r++) {
    for (const [key, fn] of r % 2 ? variants : [...variants].reverse()) {
      const t0 = nowNs();
      for (let i = 0; i < 1_000; i++) fn(i);
      out[key].push((nowNs() - t0) / 1_000);
    }
  }
  return { a: median(out.a), b: median(out.b) };
}

/** Outcomes of `check` that are not "call, arguments untouched". */
export function callsChanged(
  outcomes: readonly CheckOutcome[],
  inputs: readonly unknown[],
): number {
  return outcomes.filter((o, i) => o.action !== 'call' || o.args !== inputs[i]).length;
}
