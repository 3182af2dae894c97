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

interface CollectingSource extends ValueSetSource {
  [COLLECT](ctx: FetchContext): Promise<CollectedValues>;
}

/** What `source` currently lists, collected. Rejects as its load would. */
export async function collectFrom(
  source: ValueSetSource,
  ctx: FetchContext,
): Promise<CollectedValues> {
  const own = (source as Partial<CollectingSource>)[COLLECT];
  if (typeof own === 'function') return own.call(source, ctx);
  // Sources may be hand-written: what they return is checked and copied here,
  // in slices, so a large list does not hold the event loop.
  return collectPayloadInTurns(await source.load(ctx), ctx.signal);
}
