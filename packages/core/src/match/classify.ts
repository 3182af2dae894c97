/**
 * The mismatch shape of a string that is not a member: the first of `case`,
 * `format`, `alias`, `near_miss`, `invented` that applies, so the shapes
 * partition the mismatches.
 */
import type { Classification } from '../types.js';
import { AMBIGUOUS, type MatchTables } from './match-tables.js';
import { caseFold, normalise } from './normalise.js';

export function classify(tables: MatchTables, value: string): Classification {
  // The checker filters non-strings first; the guard keeps a JavaScript caller
  // that does not from turning a check into an exception.
  if (typeof value !== 'string' || value.length > tables.longValueBound) {
    return { shape: 'invented' };
  }
  const key = normalise(value);
  const implied = impliedMember(tables, value, key);
  if (implied) return implied;
  const near = tables.near.nearest(key);
  return near
    ? { shape: 'near_miss', canonical: tables.members[near.member]! }
    : { shape: 'invented' };
}

/**
 * The `case`, `format` or `alias` classification of `value`, whose normalised
 * form is `key`, or undefined when none applies. A member, which is not a
 * mismatch, answers `case` with itself: a caller that forgot to test
 * membership still gets the member back rather than a neighbour's name.
 */
export function impliedMember(
  tables: MatchTables,
  value: string,
  key: string,
): Classification | undefined {
  if (tables.exact.has(value)) return { shape: 'case', canonical: value };
  const byCase = tables.byCaseKey.get(caseFold(value));
  if (byCase !== undefined && byCase !== AMBIGUOUS) {
    return { shape: 'case', canonical: tables.members[byCase]! };
  }
  const byFormat = tables.byNormalised.get(key);
  if (byFormat !== undefined && byFormat !== AMBIGUOUS) {
    return { shape: 'format', canonical: tables.members[byFormat]! };
  }
  const byAlias = tables.byAlias.get(key);
  if (byAlias !== undefined) return { shape: 'alias', canonical: tables.members[byAlias]! };
  return undefined;
}
