/**
 * One process of the fleet test: a real Node process with the real
 * OpenTelemetry SDK and @argcheck/instrumentation, set up as its entry in
 * fleet-workload.ts says, exporting OTLP/HTTP to a collector.
 *
 *   node build/test/e2e/support/fleet-agent.js
 *     ARGCHECK_FLEET_PROCESS = {"id": "a1", "otlpUrl": "...", "valueSetUrl": "..."}
 *
 * The test drives it over a loopback HTTP control port, printed on stdout
 * once the value set has been fetched:
 *   POST /rounds?n=K   run K rounds of checks (synchronously)
 *   POST /flush        export the counters now
 */
import { createServer } from 'node:http';
import { diag, DiagLogLevel, metrics, type Counter } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { httpValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import {
  PROCESSES,
  REASONS,
  ROGUE_LABELS,
  SET,
  SHAPE_VALUES,
  TOOL,
  ARGUMENT,
  roundValues,
  type FleetProcess,
} from './fleet-workload.js';

interface Settings {
  id: string;
  otlpUrl: string;
  valueSetUrl: string;
}

const settings = JSON.parse(process.env.ARGCHECK_FLEET_PROCESS ?? '{}') as Settings;
const me = PROCESSES.find((p) => p.id === settings.id);
if (!me) throw new Error(`fleet-agent: no process ${settings.id} in fleet-workload.ts`);

// SDK and instrumentation warnings (the identity warning among them) go to
// stderr, where the test reads them.
diag.setLogger(
  {
    error: (m, ...a) => console.error(`diag error: ${m} ${a.map(String).join(' ')}`),
    warn: (m, ...a) => console.error(`diag warn: ${m} ${a.map(String).join(' ')}`),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  },
  DiagLogLevel.WARN,
);

const reader = (): PeriodicExportingMetricReader =>
  new PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter({ url: `${settings.otlpUrl}/v1/metrics` }),
    exportIntervalMillis: 1_000,
    exportTimeoutMillis: 1_000,
  });

interface Running {
  round(): void;
  flush(): Promise<void>;
  ready(): Promise<void>;
}

function instrumentation(): ToolArgumentInstrumentation {
  return new ToolArgumentInstrumentation({
    valueSets: { [SET]: httpValueSet(settings.valueSetUrl) },
    checkedArguments: { [TOOL]: { [ARGUMENT]: SET } },
    logSampleRatio: 0,
    mcp: { enabled: false },
  });
}

function checking(inst: ToolArgumentInstrumentation, p: FleetProcess): Running['round'] {
  const values = roundValues(p.round);
  return () => {
    for (const [i, value] of values.entries()) {
      inst.check(TOOL, { order_id: `o-${i}`, [ARGUMENT]: value });
    }
  };
}

function start(p: FleetProcess): Running {
  if (p.sdk === 'node-sdk' || p.sdk === 'node-sdk-all-detectors') {
    // As the instrumentation's README shows it; resource detectors from the
    // environment (OTEL_NODE_RESOURCE_DETECTORS, set by the test).
    const inst = instrumentation();
    const sdk = new NodeSDK({
      serviceName: p.service,
      views: argcheckViews(),
      metricReaders: [reader()],
      instrumentations: [inst],
    });
    sdk.start();
    const provider = metrics.getMeterProvider() as MeterProvider;
    return {
      round: checking(inst, p),
      flush: () => provider.forceFlush(),
      ready: () => inst.ready(),
    };
  }
  if (p.sdk === 'meter-provider') {
    // Built by hand, with the resource detectors a user would pick.
    const resource = resourceFromAttributes({ 'service.name': p.service }).merge(
      detectResources({ detectors: [envDetector, hostDetector, processDetector] }),
    );
    const provider = new MeterProvider({ resource, views: argcheckViews(), readers: [reader()] });
    const inst = instrumentation();
    registerInstrumentations({ instrumentations: [inst], meterProvider: provider });
    return {
      round: checking(inst, p),
      flush: () => provider.forceFlush(),
      ready: () => inst.ready(),
    };
  }
  // The misconfigured application: a hand-made counter under argcheck's name,
  // with the emitted value as an attribute, on a provider without the views.
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': p.service }).merge(
      detectResources({ detectors: [envDetector] }),
    ),
    readers: [reader()],
  });
  const counter: Counter = provider
    .getMeter('refund-legacy-metrics')
    .createCounter('tool_argument_value_check', { unit: '{check}' });
  return {
    round: () => {
      for (let i = 0; i < p.round.members; i++) {
        const value = REASONS[i % REASONS.length]!;
        counter.add(1, { ...ROGUE_LABELS, in_set: 'true', in_set_normalised: 'true', value });
      }
      for (const [shape, n] of Object.entries(p.round.shapes)) {
        const value = String(SHAPE_VALUES[shape as keyof typeof SHAPE_VALUES]);
        for (let i = 0; i < n; i++) {
          counter.add(1, { ...ROGUE_LABELS, in_set: 'false', in_set_normalised: 'false', value });
        }
      }
    },
    flush: () => provider.forceFlush(),
    ready: () => Promise.resolve(),
  };
}

const running = start(me);
await running.ready();

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const answer = (status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  req.resume();
  if (req.method === 'POST' && url.pathname === '/rounds') {
    const n = Number(url.searchParams.get('n') ?? '1');
    for (let i = 0; i < n; i++) running.round();
    answer(200, { rounds: n });
  } else if (req.method === 'POST' && url.pathname === '/flush') {
    running.flush().then(
      () => answer(200, { flushed: true }),
      (error: unknown) => answer(500, { error: String(error) }),
    );
  } else {
    answer(404, {});
  }
});
control.listen(0, '127.0.0.1', () => {
  const address = control.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`FLEET-AGENT-READY port=${port} pid=${process.pid}`);
});
process.once('SIGTERM', () => process.exit(0));
