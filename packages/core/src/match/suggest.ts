/**
 * Members to offer in place of a value: the member it stands for (case,
 * format or alias) first, then members within near-miss reach of its
 * normalised form, closest first, ties in member order. The reach is the
 * near-miss threshold, so an `invented` value gets no suggestions: on a large
 * set the "closest" members of a string near nothing are noise, and a repair
 * message is better off without them.
 */
import { impliedMember } from './classify.js';
import type { MatchTables } from './match-tables.js';
import { normalise } from './normalise.js';
import { NEAR_MISS_MAX_LENGTH } from './thresholds.js';

export function suggest(tables: MatchTables, value: string, limit: number): string[] {
  const wanted = Math.floor(limit);
  if (!(wanted >= 1) || typeof value !== 'string' || value.length > tables.longValueBound) {
    return [];
  }
  const key = normalise(value);
  const implied = impliedMember(tables, value, key)?.canonical;
  const out: string[] = implied === undefined ? [] : [implied];
  if (key.length > NEAR_MISS_MAX_LENGTH) return out;
  for (const hit of tables.near.within(key, wanted)) {
    if (out.length >= wanted) break;
    const member = tables.members.stringAt(hit.member);
    if (member !== implied) out.push(member);
  }
  return out;
}
