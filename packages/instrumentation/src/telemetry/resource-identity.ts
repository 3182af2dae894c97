import type { DiagLogger } from '@opentelemetry/api';

/**
 * What tells this process's series apart from those of its siblings (other
 * processes with the same `service.name`), as the collector sees it
 * (docs/decisions/0014-process-identity.md):
 *
 * - `instance_id`: the resource has a `service.instance.id`;
 * - `process`: it has none, but a `process.pid` (with `host.name`, as
 *   NodeSDK's default detectors set them), from which otel-collector.yaml
 *   composes one;
 * - `none`: neither; the Prometheus exporter keeps one series for all such
 *   processes and the last writer wins, silently;
 * - `unknown`: the resource could not be read (not the SDK's MeterProvider).
 */
export type ResourceIdentity = 'instance_id' | 'process' | 'none' | 'unknown';

/** The part of the SDK's `Resource` read here. */
interface ResourceLike {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly asyncAttributesPending?: boolean;
  waitForAsyncAttributes?(): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * The resource of an SDK `MeterProvider`. The API's `MeterProvider` has no
 * way to ask for it: the SDK keeps it in `_sharedState.resource` (sdk-metrics
 * 2.x and 3.x alike), which is not public, so it is read with every step
 * checked, and `undefined` when the shape is not the expected one (another
 * SDK, the no-op provider, a later SDK that moved it).
 */
export function meterProviderResource(provider: unknown): ResourceLike | undefined {
  if (!isObject(provider)) return undefined;
  const shared = provider._sharedState;
  if (!isObject(shared)) return undefined;
  const resource = shared.resource;
  if (!isObject(resource) || !('attributes' in resource)) return undefined;
  return resource as unknown as ResourceLike;
}

export function resourceIdentity(attributes: Readonly<Record<string, unknown>>): ResourceIdentity {
  const id = attributes['service.instance.id'];
  if (typeof id === 'string' && id !== '') return 'instance_id';
  const pid = attributes['process.pid'];
  if (typeof pid === 'number' || (typeof pid === 'string' && pid !== '')) return 'process';
  return 'none';
}

function check(resource: ResourceLike, diag: DiagLogger): void {
  let attributes: Readonly<Record<string, unknown>>;
  try {
    attributes = resource.attributes;
  } catch {
    return;
  }
  if (!isObject(attributes) || resourceIdentity(attributes) !== 'none') return;
  const service = attributes['service.name'];
  diag.warn(
    `the meter provider's resource has neither service.instance.id nor process.pid, so ` +
      `this process cannot be told apart from other processes of service ` +
      `"${String(service)}": their counters land in the same Prometheus series and the last ` +
      'writer wins, silently. Give each process an identity: set service.instance.id ' +
      '(OTEL_RESOURCE_ATTRIBUTES=service.instance.id=<unique>, or the serviceinstance ' +
      'detector of OTEL_NODE_RESOURCE_DETECTORS), or add the process and host resource ' +
      'detectors. See docs/scaling.md.',
  );
}

/**
 * Warn through `diag` when the meter provider's resource cannot tell this
 * process apart from its siblings. Never throws; says nothing when the
 * resource cannot be read. Asynchronous resource attributes (host.id) are
 * waited for first: reading them earlier makes the SDK log an error.
 */
export function warnIfProcessesIndistinguishable(provider: unknown, diag: DiagLogger): void {
  try {
    const resource = meterProviderResource(provider);
    if (resource === undefined) return;
    if (resource.asyncAttributesPending === true && resource.waitForAsyncAttributes) {
      resource.waitForAsyncAttributes().then(
        () => check(resource, diag),
        () => undefined,
      );
      return;
    }
    check(resource, diag);
  } catch {
    // A provider of an unexpected shape: nothing to say about it.
  }
}
