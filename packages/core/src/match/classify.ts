/**
 * The mismatch shape of a string that is not a member: the first of `case`,
 * `format`, `alias`, `near_miss`, `invented` that applies, so the shapes
 * partition the mismatches.
 */
import type { Classification } from '../types.js';
import { AMBIGUOUS, type MatchTables } from './match-tables.js';
import { caseFold, normalise } from './normalise.js';
import { NEAR_MISS_MAX_LENGTH } from './thresholds.js';

export function classify(tables: MatchTables, value: string): Classification {
  // The checker filters non-strings first; the guard keeps a JavaScript caller
  // that does not from turning a check into an exception.
  if (typeof value !== 'string' || value.length > tables.longValueBound) {
    return { shape: 'invented' };
  }
  const key = normalise(value);
  const implied = impliedMember(tables, value, key);
  if (implied) return implied;
  const near = key.length <= NEAR_MISS_MAX_LENGTH ? tables.near.nearest(key) : undefined;
  return near
    ? { shape: 'near_miss', canonical: tables.members.stringAt(near.member) }
    : { shape: 'invented' };
}

/**
 * The `case`, `format` or `alias` classification of `value`, whose normalised
 * form is `key`, or undefined when none applies. A member, which is not a
 * mismatch, answers `case` with itself: a caller that forgot to test
 * membership still gets the member back rather than a neighbour's name.
 *
 * `case` is one member with the value's case fold. Normalising folds case
 * first, so such members normalise like the value: they are found among the
 * members that share its normalised key (one, or a few claimants), with no
 * index of case folds. `format` is the one member that shares the key.
 */
export function impliedMember(
  tables: MatchTables,
  value: string,
  key: string,
): Classification | undefined {
  if (tables.exact.get(value) !== undefined) return { shape: 'case', canonical: value };
  const { members, byNormalised } = tables;
  const byFormat = byNormalised.get(key);
  if (byFormat === undefined) {
    const byAlias = tables.byAlias.get(key);
    return byAlias === undefined
      ? undefined
      : { shape: 'alias', canonical: members.stringAt(byAlias) };
  }
  const fold = caseFold(value);
  if (byFormat !== AMBIGUOUS) {
    const canonical = members.stringAt(byFormat);
    return { shape: caseFold(canonical) === fold ? 'case' : 'format', canonical };
  }
  // Several members share the key: a `case` match only if exactly one has the
  // value's fold; never a `format` (nor an `alias`) match.
  let byCase: string | undefined;
  for (const claimant of byNormalised.claimants(key) ?? []) {
    const member = members.stringAt(claimant);
    if (caseFold(member) !== fold) continue;
    if (byCase !== undefined) return undefined;
    byCase = member;
  }
  return byCase === undefined ? undefined : { shape: 'case', canonical: byCase };
}
