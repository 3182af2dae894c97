/**
 * The run a tool call belongs to: one `generateText` / agent run of a
 * framework, or a scope the application opens with `inst.withAttribution`.
 * It carries what produced the run's calls (model, provider, agent, prompt
 * version), read by the engine at each call, and it is the key a rejected
 * call's retry is found by (`repair-outcomes.ts`). Kept in an
 * `AsyncLocalStorage`, made on first use, so that everything the run's code
 * starts — the tools, an MCP client inside them — sees it; shared by every
 * instrumentation and every copy of this package in the process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, propagation } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';

/** The baggage entry a run takes its prompt version from, read once when the run starts. */
const PROMPT_VERSION_BAGGAGE = 'gen_ai.prompt.version';

/** The `gen_ai.prompt.version` baggage entry of `ctx` (the active context by default). Never throws. */
export function baggagePromptVersion(ctx: Context = context.active()): string | undefined {
  try {
    const value = propagation.getBaggage(ctx)?.getEntry(PROMPT_VERSION_BAGGAGE)?.value;
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface RunAttribution {
  readonly model?: string | undefined;
  readonly provider?: string | undefined;
  readonly agent?: string | undefined;
  readonly promptVersion?: string | undefined;
}

export interface Run extends RunAttribution {
  /** The active baggage's `gen_ai.prompt.version` when the run started (below the option). */
  readonly baggagePromptVersion: string | undefined;
  /** The run has ended: its rejected calls can no longer be retried. */
  readonly ended: boolean;
  /** Call `listener` once when the run ends (never, if it has ended already). */
  onEnd(listener: (run: Run) => void): void;
  offEnd(listener: (run: Run) => void): void;
}

const STORAGE_KEY = Symbol.for('argcheck.instrumentation.run-scope');
/** The mark of a run, the same in every copy of this package (the CommonJS and ESM builds). */
const RUN = Symbol.for('argcheck.instrumentation.run');

type Store = { storage: AsyncLocalStorage<Run> | undefined };
const store: Store = ((globalThis as Record<symbol, unknown>)[STORAGE_KEY] ??= {
  storage: undefined,
}) as Store;

/** The run active now, if any. Cheap: one lookup when no run was ever opened. */
export function currentRun(): Run | undefined {
  return store.storage?.getStore();
}

/**
 * A run. Its end is watched only once something listens for it (a rejected
 * call waiting for its retry): most runs have no listener, and watching
 * every run's promise would cost two reactions per run for nothing.
 */
class RunState implements Run {
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly agent: string | undefined;
  readonly promptVersion: string | undefined;
  readonly baggagePromptVersion: string | undefined;
  ended = false;
  private listeners: Set<(run: Run) => void> | undefined;
  /** What the run's function returned, while it has not settled and nothing watches it. */
  private pending: Promise<unknown> | undefined;

  constructor(attribution: RunAttribution, outer: Run | undefined) {
    this.model = attribution.model ?? outer?.model;
    this.provider = attribution.provider ?? outer?.provider;
    this.agent = attribution.agent ?? outer?.agent;
    this.promptVersion = attribution.promptVersion ?? outer?.promptVersion;
    this.baggagePromptVersion = outer?.baggagePromptVersion ?? baggagePromptVersion();
  }

  onEnd(listener: (run: Run) => void): void {
    if (this.ended) return;
    (this.listeners ??= new Set()).add(listener);
    const pending = this.pending;
    if (pending !== undefined) {
      this.pending = undefined;
      const end = () => this.end();
      pending.then(end, end);
    }
  }

  offEnd(listener: (run: Run) => void): void {
    this.listeners?.delete(listener);
  }

  /** The run ends when `result` settles. */
  endsWith(result: Promise<unknown>): void {
    if (this.listeners === undefined) {
      this.pending = result;
    } else {
      const end = () => this.end();
      result.then(end, end);
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.pending = undefined;
    const listeners = this.listeners;
    if (listeners === undefined) return;
    this.listeners = undefined;
    for (const listener of listeners) {
      try {
        listener(this);
      } catch {
        // A listener is argcheck's own bookkeeping; it never affects the run.
      }
    }
  }
}

// On the prototype: a field with a computed key would be set on every run.
Object.defineProperty(RunState.prototype, RUN, { value: true });

/** Whether `key` (a repair's correlation key) is a run, of this copy of the package or another. */
export function isRun(key: unknown): key is Run {
  return typeof key === 'object' && key !== null && (key as { [RUN]?: unknown })[RUN] === true;
}

/**
 * Run `fn` as a run with this attribution, inheriting what the enclosing
 * run knows and this one does not. The active baggage's
 * `gen_ai.prompt.version` is read now, once for the run's calls. The run ends when `fn` returns, or when
 * the promise it returns settles; its result and errors are `fn`'s. With
 * `ends` false (a stream, which goes on after `fn` returns) it never ends:
 * its rejected calls wait for their retry until `repairWindowMs` passes.
 */
export function withRun<T>(attribution: RunAttribution, fn: () => T, ends = true): T {
  const run = new RunState(attribution, currentRun());
  const storage = (store.storage ??= new AsyncLocalStorage<Run>());
  let result: T;
  try {
    result = storage.run(run, fn);
  } catch (error) {
    run.end();
    throw error;
  }
  if (!ends) return result;
  if (result instanceof Promise) run.endsWith(result);
  else run.end();
  return result;
}
