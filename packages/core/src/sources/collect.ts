/**
 * How the provider reads a source: into a compile's collector
 * (`match/value-collector.ts`), never into a list of entry objects.
 *
 * A source of ours may collect as it parses (`httpValueSet` does, as the body
 * arrives), so that no string of a large list outlives the piece of the body
 * it came in. Any other source is read through its public `load`.
 */
import type { CollectedValues } from '../match/value-collector.js';
import type { FetchContext, ValueSetSource } from '../types.js';
import { collectPayloadInTurns } from './parse-payload.js';

/** Not part of the public API: a property only this package's sources have. */
export const COLLECT = Symbol('argcheck.collect');

/** What one load came to: a list (with the version the source gave it), or "unchanged". */
export type Collected =
  | { unchanged: false; collected: CollectedValues; version: string | undefined }
  | { unchanged: true };

export const UNCHANGED: Collected = Object.freeze({ unchanged: true });

interface CollectingSource extends ValueSetSource {
  [COLLECT](ctx: FetchContext): Promise<Collected>;
}

/** What `source` currently lists, collected, or that it is unchanged. Rejects as its load would. */
export async function collectFrom(source: ValueSetSource, ctx: FetchContext): Promise<Collected> {
  const own = (source as Partial<CollectingSource>)[COLLECT];
  if (typeof own === 'function') return own.call(source, ctx);
  // Sources may be hand-written: what they return is checked and copied here,
  // in slices, so a large list does not hold the event loop.
  const loaded: unknown = await source.load(ctx);
  if (isUnchanged(loaded)) return UNCHANGED;
  const collected = await collectPayloadInTurns(loaded, ctx.signal);
  return { unchanged: false, collected, version: versionOf(loaded) };
}

/** `{ unchanged: true }`, the answer that the list is still `ctx.version`. */
export function isUnchanged(loaded: unknown): boolean {
  return (
    typeof loaded === 'object' &&
    loaded !== null &&
    (loaded as { unchanged?: unknown }).unchanged === true
  );
}

/**
 * The `version` of a `{ values, version }` answer: a string, or a finite
 * number as a string; anything else gives none.
 */
export function versionOf(loaded: unknown): string | undefined {
  if (typeof loaded !== 'object' || loaded === null || Array.isArray(loaded)) return undefined;
  const { version } = loaded as { version?: unknown };
  if (typeof version === 'string') return version;
  if (typeof version === 'number' && Number.isFinite(version)) return String(version);
  return undefined;
}
