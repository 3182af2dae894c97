import { expect } from 'chai';
import { diag, DiagLogLevel, metrics } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  detectResources,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { ToolArgumentInstrumentation } from '../../src/index.js';
import {
  meterProviderResource,
  resourceIdentity,
  warnIfProcessesIndistinguishable,
} from '../../src/telemetry/resource-identity.js';

// The real SDK MeterProvider and resources of the installed OpenTelemetry
// line (2.x here, 3.x in scripts/compat-otel3.sh): the resource is read from
// the provider's internal state, so these tests are what tells whether that
// still works on a new SDK.

interface Captured {
  warnings: string[];
  errors: string[];
  restore(): void;
}

function captureDiag(): Captured {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: DiagLogger = {
    error: (...args: unknown[]) => errors.push(args.map(String).join(' ')),
    warn: (...args: unknown[]) => warnings.push(args.map(String).join(' ')),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  return { warnings, errors, restore: () => diag.disable() };
}

const service = { 'service.name': 'refund-agent' };
const NOT_APART =
  `the meter provider's resource has neither service.instance.id nor process.pid, so ` +
  `this process cannot be told apart from other processes of service "refund-agent"`;

describe('resource identity', () => {
  let captured: Captured;
  const providers: MeterProvider[] = [];
  beforeEach(() => {
    captured = captureDiag();
  });
  afterEach(async () => {
    captured.restore();
    await Promise.all(providers.splice(0).map((p) => p.shutdown()));
  });
  const provider = (resource: ReturnType<typeof resourceFromAttributes>): MeterProvider => {
    const p = new MeterProvider({ resource });
    providers.push(p);
    return p;
  };

  it('classifies what tells a process apart', () => {
    expect(
      [
        { ...service, 'service.instance.id': 'pod-7' },
        { ...service, 'service.instance.id': '', 'process.pid': 4242 },
        { ...service, 'process.pid': 4242, 'host.name': 'h1' },
        { ...service, 'service.instance.id': '' },
        service,
        {},
      ].map(resourceIdentity),
    ).to.deep.equal(['instance_id', 'process', 'process', 'none', 'none', 'none']);
  });

  it("reads the SDK MeterProvider's resource, and nothing from other providers", () => {
    const p = provider(resourceFromAttributes({ ...service, 'service.instance.id': 'pod-7' }));
    expect(meterProviderResource(p)?.attributes).to.deep.include({
      'service.instance.id': 'pod-7',
    });
    expect(meterProviderResource(metrics.getMeterProvider())).to.equal(undefined);
    expect(meterProviderResource({ _sharedState: { resource: 7 } })).to.equal(undefined);
    expect(meterProviderResource(undefined)).to.equal(undefined);
  });

  it('warns once for a resource with neither service.instance.id nor process.pid', () => {
    warnIfProcessesIndistinguishable(provider(resourceFromAttributes(service)), diag);
    expect(captured.warnings).to.have.length(1);
    expect(captured.warnings[0]).to.contain(NOT_APART);
  });

  it('says nothing when the resource has service.instance.id, or process.pid', () => {
    warnIfProcessesIndistinguishable(
      provider(resourceFromAttributes({ ...service, 'service.instance.id': 'pod-7' })),
      diag,
    );
    warnIfProcessesIndistinguishable(
      provider(
        resourceFromAttributes(service).merge(detectResources({ detectors: [processDetector] })),
      ),
      diag,
    );
    warnIfProcessesIndistinguishable(metrics.getMeterProvider(), diag);
    warnIfProcessesIndistinguishable({ _sharedState: null }, diag);
    expect(captured.warnings).to.deep.equal([]);
  });

  it('waits for asynchronous resource attributes instead of reading them early', async () => {
    const resource = resourceFromAttributes(service).merge(
      detectResources({ detectors: [hostDetector] }),
    );
    warnIfProcessesIndistinguishable(provider(resource), diag);
    await resource.waitForAsyncAttributes?.();
    // One more turn: the check runs in the continuation of the same promise.
    await Promise.resolve();
    expect(captured.errors).to.deep.equal([]);
    expect(captured.warnings).to.have.length(1);
    expect(captured.warnings[0]).to.contain(NOT_APART);
  });

  it('the instrumentation warns when registered with such a meter provider', () => {
    const inst = new ToolArgumentInstrumentation({
      mcp: { enabled: false },
      frameworks: { enabled: false },
    });
    const unregister = registerInstrumentations({
      instrumentations: [inst],
      meterProvider: provider(resourceFromAttributes(service)),
    });
    try {
      expect(captured.warnings).to.have.length(1);
      expect(captured.warnings[0]).to.contain(NOT_APART);
    } finally {
      unregister();
      inst.close();
    }
  });
});
