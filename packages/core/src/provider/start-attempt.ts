import { collectFrom } from '../sources/collect.js';
import { asPayloadError } from '../sources/payload-error.js';
import type { Clock, ValueSetSource } from '../types.js';
import type { AttemptOutcome } from './internal-types.js';

/** One call to a source's `load`, bounded by a timeout. */
export interface Attempt {
  /** Settles exactly once and never rejects: the load's result, a timeout, or cancellation. */
  readonly outcome: Promise<AttemptOutcome>;
  /** Abort the load and settle `outcome` now (the provider is closing). */
  cancel(): void;
}

/**
 * Start `source.load`, passing `version` (that of the list held) on. After `timeoutMs` on the injected clock the load is
 * aborted through its signal and the attempt ends as `timeout`; whatever the
 * load does after that (a source may ignore its signal) is ignored.
 */
export function startAttempt(
  source: ValueSetSource,
  version: string | undefined,
  clock: Clock,
  timeoutMs: number,
): Attempt {
  const controller = new AbortController();
  let settled = false;
  let resolve!: (outcome: AttemptOutcome) => void;
  const outcome = new Promise<AttemptOutcome>((r) => (resolve = r));
  const finish = (result: AttemptOutcome): void => {
    if (settled) return;
    settled = true;
    clock.clearTimeout(timer);
    resolve(result);
  };
  const timer = clock.setTimeout(() => {
    finish({
      ok: false,
      reason: 'timeout',
      detail: `no answer within ${timeoutMs} ms (fetchTimeoutMs); the load was aborted`,
    });
    controller.abort(abortError('TimeoutError', `value-set load timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  void load(source, version, controller.signal).then(finish);
  return {
    outcome,
    cancel() {
      finish({ ok: false, reason: 'fetch_failed', detail: 'the provider was closed' });
      controller.abort(abortError('AbortError', 'the value-set provider was closed'));
    },
  };
}

async function load(
  source: ValueSetSource,
  version: string | undefined,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  try {
    // `version` only when there is one: a hand-written source may test `'version' in ctx`.
    return {
      ok: true,
      ...(await collectFrom(source, version === undefined ? { signal } : { signal, version })),
    };
  } catch (error) {
    const payload = asPayloadError(error);
    if (payload) return { ok: false, reason: 'invalid_payload', ...payload };
    return { ok: false, reason: 'fetch_failed', detail: describe(error) };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return `load failed with a non-Error value: ${String(error)}`;
}

function abortError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
