import type { ValueSetCompiler } from '../match/compile-value-set.js';
import type { PayloadRejection } from '../sources/payload-error.js';
import type { CollectedValues } from '../match/value-collector.js';
import type { Clock, FetchFailureReason, ValueSetEvent } from '../types.js';

/** Provider options after validation, with defaults applied. Never exported. */
export interface ResolvedOptions {
  ttlMs: number;
  fetchTimeoutMs: number;
  maxStaleMs: number;
  maxShrinkRatio: number;
  /** In [0, 0.5]: a refresh starts in `ttlMs × (1 − refreshJitter × random())`. */
  refreshJitter: number;
  clock: Clock;
  /** Always a number in [0, 1), whatever the injected function does. */
  random: () => number;
  /** Publishes to `onEvent`; never throws. */
  emit: (event: ValueSetEvent) => void;
  /**
   * Compiles a refreshed set (`compileCollectedAsync`, in slices). Injected so
   * tests can exercise collisions, failures and slow compiles independently
   * of the real compiler.
   */
  compile: ValueSetCompiler;
}

/** How one call to a source's `load` ended. */
export type AttemptOutcome =
  | { ok: true; unchanged: false; collected: CollectedValues; version: string | undefined }
  | { ok: true; unchanged: true }
  | {
      ok: false;
      reason: FetchFailureReason;
      detail: string;
      /** Set when the owner answered but the payload was refused. */
      rejection?: PayloadRejection;
    };
