import type { FetchContext, SourceKind, ValueSetSource } from '../../src/types.js';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A scripted owning service behind a raw `ValueSetSource`: every load does what
 * the test last told the owner to do, and is recorded with its signal. Raw, not
 * `functionValueSet`, so that a synchronous throw reaches the provider as one.
 */
export class FakeOwner {
  /** The signal of every load, in call order. */
  readonly signals: AbortSignal[] = [];
  /** The `ctx.version` of every load, in call order (`undefined` when none was passed). */
  readonly versions: (string | undefined)[] = [];
  private behaviour: (ctx: FetchContext) => unknown;

  constructor(payload?: unknown) {
    this.behaviour = () => Promise.resolve(payload);
  }

  get calls(): number {
    return this.signals.length;
  }

  /** Loads resolve with `payload` (any shape: the provider parses it). */
  serves(payload: unknown): this {
    this.behaviour = () => Promise.resolve(payload);
    return this;
  }

  rejects(error: unknown): this {
    this.behaviour = () =>
      Promise.resolve().then(() => {
        throw error;
      });
    return this;
  }

  throwsSynchronously(error: unknown): this {
    this.behaviour = () => {
      throw error;
    };
    return this;
  }

  /** Loads never settle and ignore their signal. */
  hangs(): this {
    this.behaviour = () => new Promise(() => undefined);
    return this;
  }

  /** Loads return the promise of a deferred the test settles (one shared by every load). */
  defers(): Deferred<unknown> {
    const d = deferred<unknown>();
    this.behaviour = () => d.promise;
    return d;
  }

  source(kind: SourceKind = 'function'): ValueSetSource {
    return {
      kind,
      load: (ctx: FetchContext) => {
        this.signals.push(ctx.signal);
        this.versions.push(ctx.version);
        return this.behaviour(ctx) as ReturnType<ValueSetSource['load']>;
      },
    };
  }
}
