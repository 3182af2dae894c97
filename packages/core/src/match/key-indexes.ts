/**
 * The normalised and alias lookups, and the collisions between them. (A
 * `case` match needs no index of its own: two strings that differ only in
 * case normalise alike, so a value's case twins are among the members that
 * share its normalised key; see `classify.ts`.)
 *
 * A normalised key is claimed by every member that normalises to it and by
 * every member with an alias that normalises to it. A key with two or more
 * claimants is a collision, reported once with all of them: two members that
 * differ only in format (`LATE` / `late`, `NOT_AS_DESCRIBED` /
 * `not-as-described`), one alias given to two members, or an alias spelled
 * like another member. Colliding members are not a `format` match for that
 * key; an alias that collides is not an `alias` match. A member's alias that
 * normalises like the member itself is redundant, not a collision.
 */
import { KeyTable } from './key-table.js';
import { AMBIGUOUS } from './match-tables.js';
import { normalise } from './normalise.js';
import type { PackedStrings } from './packed-strings.js';
import { type Budget, inSlices, type Slices } from './slices.js';

// Units of work per item (see `slices.ts`): claiming hashes a key and probes
// the table (aliases, rare, are not weighed apart); scanning is one lookup;
// zeroing is one slot of the table.
const CLAIM_WEIGHT = 0.5;
const SCAN_WEIGHT = 0.25;
const ZERO_WEIGHT = 1 / 64;

export interface KeyIndexes {
  byNormalised: KeyTable;
  byAlias: Map<string, number>;
}

export type CollisionListener = (members: readonly string[], normalised: string) => void;

/**
 * Builds the indexes in slices of `budget` (see `slices.ts`).
 *
 * @param members sorted, distinct
 * @param normalised `normalise(members[i])` at position i
 * @param aliasesOf the aliases the owner gave a member, if any
 */
export function* keyIndexesInSlices(
  members: PackedStrings,
  normalised: PackedStrings,
  aliasesOf: (member: number) => readonly string[] | undefined,
  onCollision: CollisionListener | undefined,
  budget: Budget,
): Slices<KeyIndexes> {
  const byNormalised = new KeyTable(normalised);
  yield* inSlices(budget, byNormalised.size, ZERO_WEIGHT, (from, to) => {
    byNormalised.zero(from, to);
  });
  // Member numbers per alias key, ascending because members are visited in order.
  const aliasClaims = new Map<string, number[]>();
  yield* inSlices(budget, members.count, CLAIM_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      byNormalised.claim(i);
      for (const alias of aliasesOf(i) ?? []) {
        const key = normalise(alias);
        if (normalised.equals(i, key)) continue;
        const claimants = aliasClaims.get(key);
        if (!claimants) aliasClaims.set(key, [i]);
        else if (claimants[claimants.length - 1] !== i) claimants.push(i);
      }
    }
  });

  const collisions = new Map<string, Set<number>>();
  yield* inSlices(budget, members.count, SCAN_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      if (!byNormalised.isShared(i)) continue;
      const key = normalised.stringAt(i);
      const group = collisions.get(key);
      if (group) group.add(i);
      else collisions.set(key, new Set([i]));
    }
  });
  const byAlias = new Map<string, number>();
  // Neither map below changes while it is iterated, so iterating across pauses is safe.
  const claimed = aliasClaims.entries();
  yield* inSlices(budget, aliasClaims.size, CLAIM_WEIGHT, (from, to) => {
    for (let n = from; n < to; n++) {
      const [key, claimants] = claimed.next().value!;
      const memberClaim = byNormalised.get(key);
      if (memberClaim === undefined && claimants.length === 1) {
        byAlias.set(key, claimants[0]!);
        continue;
      }
      const group = collisions.get(key) ?? new Set<number>();
      if (memberClaim !== undefined && memberClaim !== AMBIGUOUS) group.add(memberClaim);
      for (const i of claimants) group.add(i);
      collisions.set(key, group);
    }
  });

  if (onCollision) {
    const groups = collisions.entries();
    yield* inSlices(budget, collisions.size, CLAIM_WEIGHT, (from, to) => {
      for (let n = from; n < to; n++) {
        const [key, group] = groups.next().value!;
        const names = [...group].sort((a, b) => a - b).map((i) => members.stringAt(i));
        try {
          onCollision(names, key);
        } catch {
          // A listener's failure must not cost the set its refresh.
        }
      }
    });
  }
  return { byNormalised, byAlias };
}
