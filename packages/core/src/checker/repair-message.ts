import type { ValueSet } from '../types.js';

export interface RepairLimits {
  listAllUpTo: number;
  suggestionCount: number;
  maxLength: number;
  quotePrefixLength: number;
}

/** One rejected argument, as the repair message describes it. */
export interface RejectedArgument {
  /** Concrete location, e.g. `items[1].warehouse_code`. */
  where: string;
  setName: string;
  value: unknown;
  set: ValueSet;
  suggestions: readonly string[];
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
  return `${JSON.stringify(chars)}${cut ? '…' : ''}`;
}

function listed(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

function describe(arg: RejectedArgument, limits: RepairLimits): string {
  const got = quote(arg.value, limits.quotePrefixLength);
  if (arg.set.size <= limits.listAllUpTo) {
    return `"${arg.where}" must be one of: ${listed(arg.set.members())} (got ${got}).`;
  }
  const closest = arg.suggestions.length > 0 ? ` Closest: ${listed(arg.suggestions)}.` : '';
  return (
    `"${arg.where}" must be a member of ${arg.setName} ` +
    `(${arg.set.size} values; got ${got}).${closest}`
  );
}

/**
 * Tell the model exactly what to choose from: a bare "invalid value" makes it
 * guess again from the same distribution, the legal values turn the retry
 * into a selection. Bounded so a huge set or value cannot blow up a turn.
 */
export function repairMessage(
  tool: string,
  rejected: readonly RejectedArgument[],
  limits: RepairLimits,
): string {
  const head = `${tool} was not called: ${rejected.length === 1 ? 'an argument is' : 'arguments are'} not a legal value.`;
  const tail = ' Call the tool again using only the listed values.';
  let body = '';
  for (let i = 0; i < rejected.length; i++) {
    const line = ` ${describe(rejected[i] as RejectedArgument, limits)}`;
    const more = ` (${rejected.length - i} more arguments not shown.)`;
    if (head.length + body.length + line.length + tail.length > limits.maxLength) {
      body += i === 0 ? clip(line, limits.maxLength - head.length - tail.length) : more;
      break;
    }
    body += line;
  }
  return clip(head + body + tail, limits.maxLength);
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}
