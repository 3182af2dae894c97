import type { KeyTable } from './key-table.js';
import type { NearMissIndex } from './near-miss-index.js';
import type { PackedStrings } from './packed-strings.js';

/** A key two or more members claim: it matches none of them. */
export const AMBIGUOUS = -1;

/**
 * Everything a compiled set answers from, built once per refresh. Maps go
 * from a key to a member's position in `members`, or to `AMBIGUOUS`; they are
 * Maps (never plain objects) so `__proto__` or `constructor` is only a key
 * when a member makes it one.
 */
export interface MatchTables {
  /** Members in code-unit order; positions are member numbers. */
  readonly members: PackedStrings;
  /** Member → its number (members are distinct: no key is ever shared). */
  readonly exact: KeyTable;
  /** `normalise(member)` at each member number. */
  readonly normalised: PackedStrings;
  /** `normalise(member)` → member, or `AMBIGUOUS` with the claimants beside it. */
  readonly byNormalised: KeyTable;
  /** `normalise(alias)` → member; ambiguous and shadowed aliases are left out. */
  readonly byAlias: ReadonlyMap<string, number>;
  readonly near: NearMissIndex;
  /** Longer values are `invented` unexamined (see `longValueBound`). */
  readonly longValueBound: number;
}
