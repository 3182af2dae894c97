/**
 * A deliberately naive classifier written from the contract, scanning every
 * member: the compiled set must agree with it on every input. It shares only
 * the definitions under test elsewhere (normalisation, thresholds), never the
 * indexes.
 */
import type { Classification, ValueSetEntry } from '../../src/types.js';
import { caseFold, normalise } from '../../src/match/normalise.js';
import { longValueBound, maxEdits } from '../../src/match/thresholds.js';

/** Full-matrix optimal string alignment distance. */
export function osaDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        d[i]![j] = i + j;
        continue;
      }
      let v = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

export interface Reference {
  classify(value: string): Classification;
  suggest(value: string, limit: number): string[];
}

/**
 * @param distance how to measure edits; the full matrix by default, a faster
 *   implementation (itself tested against the full matrix) for large sets
 */
export function reference(
  entries: readonly ValueSetEntry[],
  distance: (a: string, b: string) => number = osaDistance,
): Reference {
  const members = [...new Set(entries.map((e) => e.value))].sort();
  const memberSet = new Set(members);
  const normals = members.map(normalise);
  const folds = members.map(caseFold);
  const aliases = new Map<string, string[]>();
  for (const e of entries)
    aliases.set(e.value, [...(aliases.get(e.value) ?? []), ...(e.aliases ?? [])]);
  const longest = Math.max(
    0,
    ...entries.flatMap((e) => [e.value, ...(e.aliases ?? [])].map((s) => s.length)),
  );

  function implied(value: string): Classification | undefined {
    if (memberSet.has(value)) return { shape: 'case', canonical: value };
    const fold = caseFold(value);
    const byCase = members.filter((_, i) => folds[i] === fold);
    if (byCase.length === 1) return { shape: 'case', canonical: byCase[0]! };
    const key = normalise(value);
    const byFormat = members.filter((_, i) => normals[i] === key);
    if (byFormat.length === 1) return { shape: 'format', canonical: byFormat[0]! };
    if (byFormat.length > 1) return undefined;
    const byAlias = members.filter((m, i) =>
      (aliases.get(m) ?? []).some((a) => normalise(a) === key && key !== normals[i]),
    );
    if (byAlias.length === 1) return { shape: 'alias', canonical: byAlias[0]! };
    return undefined;
  }

  /** Members within reach of `value`'s normalised form, closest first, ties in member order. */
  function near(value: string): { member: string; d: number }[] {
    const key = normalise(value);
    const hits: { member: string; d: number }[] = [];
    for (let i = 0; i < members.length; i++) {
      const member = members[i]!;
      const other = normals[i]!;
      const limit = maxEdits(Math.min(key.length, other.length));
      if (Math.abs(key.length - other.length) > limit) continue;
      const d = distance(key, other);
      if (d <= limit) hits.push({ member, d });
    }
    return hits.sort((x, y) => x.d - y.d || (x.member < y.member ? -1 : 1));
  }

  return {
    classify(value) {
      if (value.length > longValueBound(longest)) return { shape: 'invented' };
      const hit = implied(value);
      if (hit) return hit;
      const closest = near(value)[0];
      return closest ? { shape: 'near_miss', canonical: closest.member } : { shape: 'invented' };
    },
    suggest(value, limit) {
      if (!(Math.floor(limit) >= 1) || value.length > longValueBound(longest)) return [];
      const first = implied(value)?.canonical;
      const rest = near(value)
        .map((x) => x.member)
        .filter((m) => m !== first);
      return (first === undefined ? rest : [first, ...rest]).slice(0, Math.floor(limit));
    },
  };
}
