import type { ValueSetEntry } from '../types.js';
import {
  Budget,
  DEFAULT_SLICE_UNITS,
  inSlices,
  runInTurns,
  runWhole,
  type Slices,
} from '../match/slices.js';
import { type CollectedValues, ValueCollector } from '../match/value-collector.js';
import { ValueSetPayloadError } from './payload-error.js';

const EXPECTED =
  'expected a JSON array of strings or of { value, aliases? } entries, or an object { values: [...] }';

/** Where parsed entries go: an array of them, or a compile's collector. */
export interface EntrySink {
  add(value: string, aliases?: readonly string[]): void;
}

/**
 * Read what an owner sent into entries. Accepts an array of strings, an array
 * of `{ value, aliases? }` entries (mixing both is fine), or either wrapped as
 * `{ values: [...] }`. Anything else throws a {@link ValueSetPayloadError}
 * saying what was found instead. An empty list parses; refusing it is the
 * provider's decision, reported as `empty`.
 */
export function parseValueSetPayload(payload: unknown): ValueSetEntry[] {
  const entries: ValueSetEntry[] = [];
  runWhole(parseInSlices(payload, entrySink(entries), new Budget(Infinity)));
  return entries;
}

/**
 * `parseValueSetPayload` a slice at a time, with a turn of the event loop
 * between slices (`setImmediate`; a list of a few thousand entries parses
 * before this returns), so a million entries never hold the loop. Rejects
 * where that throws, or with `signal`'s reason once it aborts. The payload
 * must not change until the promise settles.
 */
export async function parseValueSetPayloadInTurns(
  payload: unknown,
  signal?: AbortSignal,
): Promise<ValueSetEntry[]> {
  const entries: ValueSetEntry[] = [];
  await runInTurns(
    parseInSlices(payload, entrySink(entries), new Budget(DEFAULT_SLICE_UNITS)),
    signal,
  );
  return entries;
}

/**
 * `parseValueSetPayloadInTurns` straight into a compile's collector: what a
 * provider does with what a source loaded. No entry objects are made.
 */
export async function collectPayloadInTurns(
  payload: unknown,
  signal?: AbortSignal,
): Promise<CollectedValues> {
  const list = listOf(payload);
  const collector = new ValueCollector(list.length);
  await runInTurns(parseInSlices(list, collector, new Budget(DEFAULT_SLICE_UNITS)), signal);
  return collector.finish();
}

// Units of work per element (see `match/slices.ts`): one small object made.
const ELEMENT_WEIGHT = 0.125;

function* parseInSlices(payload: unknown, sink: EntrySink, budget: Budget): Slices<void> {
  const list = listOf(payload);
  yield* inSlices(budget, list.length, ELEMENT_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) addElement(sink, list[i], i);
  });
}

function entrySink(entries: ValueSetEntry[]): EntrySink {
  return {
    add: (value, aliases) => entries.push(aliases === undefined ? { value } : { value, aliases }),
  };
}

function listOf(payload: unknown): readonly unknown[] {
  if (Array.isArray(payload)) return payload;
  if (isRecord(payload) && 'values' in payload) {
    if (Array.isArray(payload.values)) return payload.values;
    throw malformed(`"values" is ${describe(payload.values)}; ${EXPECTED}`);
  }
  const got = isRecord(payload) ? 'an object without "values"' : describe(payload);
  throw malformed(`got ${got}; ${EXPECTED}`);
}

/**
 * Check element `index` of a list and add it to `sink`.
 *
 * @throws ValueSetPayloadError when it is neither a string nor an entry
 */
export function addElement(sink: EntrySink, element: unknown, index: number): void {
  if (typeof element === 'string') return sink.add(element);
  if (!isRecord(element) || typeof element.value !== 'string') {
    const got = isRecord(element) ? 'an object without a string "value"' : describe(element);
    throw malformed(
      `element ${index} is ${got}; expected a string or { value: string, aliases?: string[] }`,
    );
  }
  const { aliases } = element;
  if (aliases === undefined) return sink.add(element.value);
  if (!Array.isArray(aliases) || !aliases.every((a) => typeof a === 'string')) {
    throw malformed(`element ${index} has "aliases" that is not an array of strings`);
  }
  sink.add(element.value, [...aliases]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Describes the type, never the content: payload text, keys included, must
// not end up in logs (status() is pasted into bug reports).
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isRecord(value)) return 'an object';
  return `a ${typeof value}`;
}

function malformed(detail: string): ValueSetPayloadError {
  return new ValueSetPayloadError('malformed', detail);
}
