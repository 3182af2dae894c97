import type { MismatchShape } from '@argcheck/core';
import { between, pick, type Random } from './prng.js';

/** What kind of values an argument holds decides how a model gets them wrong. */
export type ValueKind = 'reason_code' | 'component' | 'handle' | 'warehouse';

/** Invented values a model reaches for when the text does not pin the member down. */
const INVENTED: Readonly<Record<ValueKind, readonly string[]>> = {
  reason_code: ['CUSTOMER_UNHAPPY', 'CHANGED_MIND', 'BETTER_PRICE_ELSEWHERE', 'NO_LONGER_NEEDED', 'QUALITY_ISSUE'],
  component: ['legacy-monolith', 'frontend', 'main-database', 'customer-portal', 'mobile-app'],
  handle: ['support-oncall', 'team-lead', 'admin', 'first-available', 'escalations'],
  warehouse: ['BER9', 'MAIN', 'EU-CENTRAL', 'NORTHHUB', 'OSL7'],
}; // prettier-ignore

function titleCase(value: string): string {
  return value
    .toLowerCase()
    .replace(/(^|[_\-. ])(\p{L})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

function flipCase(value: string): string {
  const lower = value.toLowerCase();
  return lower === value ? value.toUpperCase() : lower;
}

/** One typo: drop a letter or swap two neighbours, away from the first letter. */
function typo(random: Random, value: string): string {
  const at = between(random, 1, value.length - 2);
  if (random() < 0.5) return value.slice(0, at) + value.slice(at + 1);
  return value.slice(0, at) + (value[at + 1] ?? '') + (value[at] ?? '') + value.slice(at + 2);
}

/** Same member, other separators or padding: equal after normalisation, not by case alone. */
function reformat(random: Random, value: string): string {
  const options = [
    value.toLowerCase().replace(/[_\-.]/g, ' '),
    // Other separators than the member's, so that case alone is not the difference.
    titleCase(value).replace(/[_\-.]/g, value.includes('_') ? '-' : '_'),
    ` ${value} `,
    `"${value}"`,
  ];
  return pick(random, /[_\-.]/.test(value) ? options : options.slice(2));
}

/**
 * A value that a model emits instead of `meant` with the given mismatch shape.
 * `aliases` are the owner's labels for `meant` (the `alias` shape needs one).
 */
export function variant(
  random: Random,
  kind: ValueKind,
  shape: MismatchShape,
  meant: string,
  aliases: readonly string[] = [],
): unknown {
  switch (shape) {
    case 'case':
      return random() < 0.5 ? flipCase(meant) : titleCase(meant);
    case 'format':
      return reformat(random, meant);
    case 'alias':
      return aliases.length > 0
        ? pick(random, aliases).toLowerCase()
        : pick(random, INVENTED[kind]);
    case 'near_miss':
      return typo(random, meant);
    case 'invented':
      return pick(random, INVENTED[kind]);
    case 'not_string':
      return pick(random, [3, null, true]);
  }
}
