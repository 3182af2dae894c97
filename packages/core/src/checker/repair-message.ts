import { leadingMembers } from '../match/compiled-set.js';
import type { RepairDisclosure, ValueSet } from '../types.js';
import { describeLocation } from './argument-path.js';
import { clip, escapedPrefix, quotedPrefix } from './message-text.js';

export interface RepairLimits {
  listAllUpTo: number;
  suggestionCount: number;
  maxLength: number;
  quotePrefixLength: number;
  /** What the message may say about a set's members (`repairDisclosure`). */
  disclosure: (setName: string) => RepairDisclosure;
}

/** One rejected argument, as the repair message describes it. */
export interface RejectedArgument {
  /** Concrete location, e.g. `['items', 1, 'warehouse_code']`. */
  location: readonly (string | number)[];
  setName: string;
  value: unknown;
  set: ValueSet;
  /** Given the suggestions the message offers, when the message describes this argument. */
  finding: { suggestions?: readonly string[] };
}

function quote(value: unknown, prefixLength: number): string {
  if (typeof value !== 'string') {
    if (value === null) return 'null';
    return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  }
  const chars = Array.from(value.slice(0, prefixLength * 2))
    .slice(0, prefixLength)
    .join('');
  const cut = chars.length < value.length;
  return `${quotedPrefix(chars, chars.length)}${cut ? '…' : ''}`;
}

/**
 * `text` followed by `values` as JSON strings, separated by commas, stopping
 * once the result is longer than `room`: what lies past `room` is never
 * shown, and a member may be megabytes long.
 */
function listed(text: string, values: readonly string[], room: number): string {
  for (let i = 0; i < values.length && text.length <= room; i++) {
    if (i > 0) text += ', ';
    text += quotedPrefix(values[i] as string, room - text.length + 1);
  }
  return text;
}

/** Members to offer in place of a rejected value (none for an `invented` one). */
function suggestionsFor(arg: RejectedArgument, count: number): readonly string[] {
  return typeof arg.value === 'string'
    ? arg.set.suggest(arg.value, count)
    : leadingMembers(arg.set, count);
}

const NONE: readonly string[] = Object.freeze([]);

interface DescribedLine {
  text: string;
  /** What the line offers; undefined when it was not worth computing. */
  suggestions: readonly string[] | undefined;
}

/**
 * One line of the message. Exact up to `room` characters; past that it may
 * stop early, because a line longer than `room` is clipped or not shown.
 */
function describe(arg: RejectedArgument, limits: RepairLimits, room: number): DescribedLine {
  const where = escapedPrefix(describeLocation(arg.location), room);
  const got = quote(arg.value, limits.quotePrefixLength);
  const disclosure = limits.disclosure(arg.setName);
  if (disclosure === 'none') {
    const text =
      ` "${where}" must be a member of ${escapedPrefix(arg.setName, room)} ` +
      `(${arg.set.size} values; got ${got}).`;
    return { text, suggestions: NONE };
  }
  if (disclosure === 'list' && arg.set.size <= limits.listAllUpTo) {
    const suggestions = suggestionsFor(arg, limits.suggestionCount);
    const members = listed(` "${where}" must be one of: `, arg.set.members(), room);
    return { text: `${members} (got ${got}).`, suggestions };
  }
  const text =
    ` "${where}" must be a member of ${escapedPrefix(arg.setName, room)} ` +
    `(${arg.set.size} values; got ${got}).`;
  // A line that cannot be shown needs no suggestions.
  if (text.length > room) return { text, suggestions: undefined };
  const suggestions = suggestionsFor(arg, limits.suggestionCount);
  if (suggestions.length === 0) return { text, suggestions };
  return { text: `${listed(`${text} Closest: `, suggestions, room)}.`, suggestions };
}

/**
 * Tell the model exactly what to choose from: a bare "invalid value" makes it
 * guess again from the same distribution, the legal values turn the retry
 * into a selection. Bounded so a huge set or value cannot blow up a turn, and
 * built only as far as it is shown: suggestions are computed (and given to
 * the findings) only for the arguments it describes.
 */
export function repairMessage(
  tool: string,
  rejected: readonly RejectedArgument[],
  limits: RepairLimits,
): string {
  const max = limits.maxLength;
  const head =
    `${escapedPrefix(tool, max)} was not called: ` +
    `${rejected.length === 1 ? 'an argument is' : 'arguments are'} not a legal value.`;
  // A message that names no member cannot point at listed values.
  const tail = rejected.some((arg) => limits.disclosure(arg.setName) !== 'none')
    ? ' Call the tool again using only the listed values.'
    : ' Call the tool again with a member of the set.';
  let body = '';
  for (let i = 0; i < rejected.length; i++) {
    const arg = rejected[i] as RejectedArgument;
    const room = max - head.length - body.length - tail.length;
    const line = describe(arg, limits, Math.max(room, 0));
    const fits = line.text.length <= room;
    if (!fits && i > 0) {
      body += ` (${rejected.length - i} more arguments not shown.)`;
      break;
    }
    // The first argument is described even when clipped.
    body += fits ? line.text : clip(line.text, room);
    if (line.suggestions !== undefined) arg.finding.suggestions = line.suggestions;
    if (!fits) break;
  }
  return clip(head + body + tail, max);
}
