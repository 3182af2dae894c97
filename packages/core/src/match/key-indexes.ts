/**
 * The case, normalised and alias lookups, and the collisions between them.
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
import { AMBIGUOUS } from './match-tables.js';
import { caseFold, normalise } from './normalise.js';

export interface KeyIndexes {
  byCaseKey: Map<string, number>;
  byNormalised: Map<string, number>;
  byAlias: Map<string, number>;
}

export type CollisionListener = (members: readonly string[], normalised: string) => void;

/**
 * @param members sorted, distinct
 * @param normalised `normalise(members[i])` at position i
 * @param aliasesOf the aliases the owner gave a member, if any
 */
export function buildKeyIndexes(
  members: readonly string[],
  normalised: readonly string[],
  aliasesOf: (member: string) => readonly string[] | undefined,
  onCollision: CollisionListener | undefined,
): KeyIndexes {
  const byCaseKey = new Map<string, number>();
  const byNormalised = new Map<string, number>();
  // Member numbers per alias key, ascending because members are visited in order.
  const aliasClaims = new Map<string, number[]>();
  for (let i = 0; i < members.length; i++) {
    claim(byCaseKey, caseFold(members[i]!), i);
    claim(byNormalised, normalised[i]!, i);
    for (const alias of aliasesOf(members[i]!) ?? []) {
      const key = normalise(alias);
      if (key === normalised[i]) continue;
      const claimants = aliasClaims.get(key);
      if (!claimants) aliasClaims.set(key, [i]);
      else if (claimants[claimants.length - 1] !== i) claimants.push(i);
    }
  }

  const collisions = new Map<string, Set<number>>();
  for (let i = 0; i < members.length; i++) {
    const key = normalised[i]!;
    if (byNormalised.get(key) !== AMBIGUOUS) continue;
    const group = collisions.get(key);
    if (group) group.add(i);
    else collisions.set(key, new Set([i]));
  }
  const byAlias = new Map<string, number>();
  for (const [key, claimants] of aliasClaims) {
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

  if (onCollision) {
    for (const [key, group] of collisions) {
      const names = [...group].sort((a, b) => a - b).map((i) => members[i]!);
      try {
        onCollision(names, key);
      } catch {
        // A listener's failure must not cost the set its refresh.
      }
    }
  }
  return { byCaseKey, byNormalised, byAlias };
}

function claim(index: Map<string, number>, key: string, member: number): void {
  index.set(key, index.has(key) ? AMBIGUOUS : member);
}
