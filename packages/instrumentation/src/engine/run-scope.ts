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
  ended: boolean;
  /** Called once when the run ends. */
  readonly onEnd: Set<(run: Run) => void>;
}

const STORAGE_KEY = Symbol.for('argcheck.instrumentation.run-scope');

type Store = { storage: AsyncLocalStorage<Run> | undefined };
const store: Store = ((globalThis as Record<symbol, unknown>)[STORAGE_KEY] ??= {
  storage: undefined,
}) as Store;

/** The run active now, if any. Cheap: one lookup when no run was ever opened. */
export function currentRun(): Run | undefined {
  return store.storage?.getStore();
}

function end(run: Run): void {
  if (run.ended) return;
  run.ended = true;
  for (const listener of run.onEnd) {
    try {
      listener(run);
    } catch {
      // A listener is argcheck's own bookkeeping; it never affects the run.
    }
  }
  run.onEnd.clear();
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
  const outer = currentRun();
  const run: Run = {
    model: attribution.model ?? outer?.model,
    provider: attribution.provider ?? outer?.provider,
    agent: attribution.agent ?? outer?.agent,
    promptVersion: attribution.promptVersion ?? outer?.promptVersion,
    baggagePromptVersion: outer?.baggagePromptVersion ?? baggagePromptVersion(),
    ended: false,
    onEnd: new Set(),
  };
  const storage = (store.storage ??= new AsyncLocalStorage<Run>());
  let result: T;
  try {
    result = storage.run(run, fn);
  } catch (error) {
    end(run);
    throw error;
  }
  if (!ends) return result;
  if (result instanceof Promise) {
    result.then(
      () => end(run),
      () => end(run),
    );
  } else {
    end(run);
  }
  return result;
}
