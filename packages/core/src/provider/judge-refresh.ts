import type { CollectedValues } from '../match/value-collector.js';
import type { RefreshRejection, ValueSet } from '../types.js';
import type { ResolvedOptions } from './internal-types.js';

export interface Collision {
  members: readonly string[];
  normalised: string;
}

export type Verdict =
  | { ok: true; set: ValueSet; collisions: readonly Collision[] }
  | { ok: false; rejection: Exclude<RefreshRejection, 'too_large'>; detail: string };

/**
 * Decide whether a well-formed refresh may replace the set being served.
 * Refuses an empty list, and a list that lost more than `maxShrinkRatio` of the
 * members of the reference when the compile ends (`servedSize()`: the largest
 * set served since the last accepted shrink, if one is served; see
 * `ValueSetSlot.shrinkReference`), unless the slot says the shrink has
 * persisted (`allowShrink`): an owner mid-deploy or truncating a response must
 * not turn every real value into a mismatch. Collisions are collected, not published, so a
 * refused set reports none. Compiling may take many turns of the event loop;
 * once `signal` aborts it is abandoned, and the verdict (`malformed`) is for
 * no one.
 */
export async function judgeRefresh(
  collected: CollectedValues,
  servedSize: () => { size: number; allowShrink: boolean } | undefined,
  options: Pick<ResolvedOptions, 'maxShrinkRatio' | 'compile'>,
  signal: AbortSignal,
): Promise<Verdict> {
  if (collected.values.count === 0) {
    return { ok: false, rejection: 'empty', detail: 'the owner sent an empty list' };
  }
  const collisions: Collision[] = [];
  let set: ValueSet;
  try {
    set = await options.compile(collected, {
      onCollision: (members, normalised) => collisions.push({ members: [...members], normalised }),
      signal,
    });
  } catch (error) {
    return {
      ok: false,
      rejection: 'malformed',
      detail: `the set could not be compiled: ${String(error)}`,
    };
  }
  const reference = servedSize();
  const served = reference?.size;
  if (
    reference !== undefined &&
    served !== undefined &&
    !reference.allowShrink &&
    set.size < served * (1 - options.maxShrinkRatio)
  ) {
    const lost = Math.round((1 - set.size / served) * 100);
    return {
      ok: false,
      rejection: 'shrunk',
      detail: `the owner sent ${set.size} members, down from ${served} (${lost}% lost, more than maxShrinkRatio ${options.maxShrinkRatio} allows)`,
    };
  }
  return { ok: true, set, collisions };
}
