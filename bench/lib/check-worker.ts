// One instrumentation in a worker thread of its own, timing batches of
// in-set `inst.check` calls when asked. Such workers, one with
// `attribution: false`, let the attribution bar compare the configurations
// side by side in one run: each worker is its own V8 isolate, so no instance
// makes another's call sites polymorphic.
import { parentPort, workerData } from 'node:worker_threads';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { PullReader, sumOf } from '@argcheck/testing/metrics';
import { nowNs } from './stats.js';
import { discardingExporter } from './telemetry.js';

export interface CheckWorkerData {
  readonly codes: readonly string[];
  readonly attribution: boolean;
  readonly logSampleRatio: number;
}

/** `batch`: time `n` calls of one kind; `count`: the checks the counters hold; `close`. */
export type CheckWorkerRequest =
  | { readonly type: 'batch'; readonly attributed: boolean; readonly n: number }
  | { readonly type: 'count' }
  | { readonly type: 'close' };

if (parentPort !== null) {
  const port = parentPort;
  const { codes, attribution, logSampleRatio } = workerData as CheckWorkerData;
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const loggerProvider = new LoggerProvider({
    processors: [
      new BatchLogRecordProcessor({ exporter: discardingExporter(), maxQueueSize: 4096 }),
    ],
  });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(codes) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
    logSampleRatio,
    ...(attribution ? {} : { attribution: false as const }),
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
  const inSet = codes.map((reason_code, i) => ({ order_id: `o-${i}`, reason_code }));
  const N = inSet.length;
  const context = { model: 'gpt-5', provider: 'openai', promptVersion: 'v3' };
  // Two loops, so that each call site sees one kind of call, as in the main bench.
  const plain = (n: number): number => {
    let s = 0;
    for (let i = 0; i < n; i++) s += inst.check('refund_order', inSet[i % N]).findings.length;
    return s;
  };
  const attributed = (n: number): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += inst.check('refund_order', inSet[i % N], context).findings.length;
    }
    return s;
  };
  let sink = 0;
  port.on('message', (request: CheckWorkerRequest) => {
    void (async () => {
      if (request.type === 'batch') {
        const t0 = nowNs();
        sink += (request.attributed ? attributed : plain)(request.n);
        port.postMessage((nowNs() - t0) / request.n);
      } else if (request.type === 'count') {
        const { resourceMetrics } = await reader.collect();
        port.postMessage(sumOf(resourceMetrics, 'tool_argument_value_check'));
      } else {
        inst.close();
        await meterProvider.shutdown();
        await loggerProvider.shutdown();
        port.postMessage(sink);
        port.close();
      }
    })();
  });
  void inst.ready().then(() => port.postMessage('ready'));
}
