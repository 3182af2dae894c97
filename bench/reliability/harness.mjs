// What the fault scenarios run on: the real provider, checker and
// instrumentation, a fake clock where time matters (the core's own test
// clock, from the build), a loopback owner whose behaviour a scenario sets,
// and real SDK providers.
import { createServer } from 'node:http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { countingProcessor, PullReader, seriesCounts, sumOf } from '../lib/telemetry.mjs';
import { median, nowNs } from '../lib/stats.mjs';

export { FakeClock, settle } from '../../packages/core/build/test/helpers/fake-clock.js';

export const CODES = [
  'DAMAGED',
  'DUPLICATE_CHARGE',
  'LATE',
  'NOT_AS_DESCRIBED',
  'OTHER',
  'WRONG_ITEM',
];
export const CHECKED = { refund_order: { reason_code: 'refunds' } };

/**
 * A loopback owner of one set at `url`. `behave(fn)` sets what every request
 * gets: `fn(req, res)` answers (or not). Counts requests and body bytes sent.
 */
export async function loopbackOwner() {
  const stats = { requests: 0, bytesSent: 0 };
  let behaviour = (_req, res) => json(res, 200, CODES);
  const sockets = new Set();
  const server = createServer((req, res) => {
    stats.requests += 1;
    behaviour(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/value-sets/refunds`,
    stats,
    behave(fn) {
      behaviour = fn;
    },
    serves(payload) {
      behaviour = (_req, res) => json(res, 200, payload);
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** An instrumentation registered with a real MeterProvider (pull) and LoggerProvider (counting). */
export function instrumented(config, providers = {}) {
  const reader = new PullReader();
  const meterProvider = providers.meterProvider ?? new MeterProvider({ readers: [reader] });
  const logs = countingProcessor();
  const loggerProvider = providers.loggerProvider ?? new LoggerProvider({ processors: [logs] });
  const inst = new ToolArgumentInstrumentation({ mcp: { enabled: false }, ...config });
  const unregister = registerInstrumentations({
    instrumentations: [inst],
    meterProvider,
    loggerProvider,
  });
  return {
    inst,
    logs,
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return {
        series: seriesCounts(resourceMetrics),
        sum: (name) => sumOf(resourceMetrics, name),
      };
    },
    async close() {
      unregister();
      inst.close();
      // A broken provider may not even have shutdown().
      await Promise.resolve()
        .then(() => meterProvider.shutdown())
        .catch(() => undefined);
      await Promise.resolve()
        .then(() => loggerProvider.shutdown())
        .catch(() => undefined);
    },
  };
}

/** Median ns per call of `fn(i)` over batches of 1,000 (after one batch of warm-up). */
export function nsPerCall(fn, batches = 30) {
  for (let i = 0; i < 1_000; i++) fn(i);
  const samples = [];
  for (let b = 0; b < batches; b++) {
    const t0 = nowNs();
    for (let i = 0; i < 1_000; i++) fn(i);
    samples.push((nowNs() - t0) / 1_000);
  }
  return median(samples);
}

/** Median ns per call of `a(i)` and of `b(i)`, measured in alternating batches of 1,000. */
export function nsPerCallSideBySide(a, b, batches = 40) {
  const variants = [
    ['a', a],
    ['b', b],
  ];
  const out = { a: [], b: [] };
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
export function callsChanged(outcomes, inputs) {
  return outcomes.filter((o, i) => o.action !== 'call' || o.args !== inputs[i]).length;
}
