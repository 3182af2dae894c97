/**
 * Reads checked values straight out of a JSON text (OpenAI-style arguments)
 * and says where each string value sits in that text, so that a rewrite can
 * replace those characters and nothing else. Parsing and serialising again
 * would change what JSON.parse cannot give back: integers past 2^53 (an
 * order id becomes another order's), `1e400`, `10.10`, `-0`, escapes, key
 * order, whitespace.
 *
 * Unlike JSON.parse, which keeps the last of repeated keys, every occurrence
 * of a checked key is found: a server that reads the first must not get a
 * value the check never saw.
 */
import type { ArgumentPath } from './argument-path.js';

/** A value found at a path in a JSON text. */
export interface TextValue {
  readonly value: unknown;
  /** Property keys and array indexes from the root, as for object arguments. */
  readonly location: readonly (string | number)[];
  /** Where the value's token starts and ends in the text (quotes included for a string). */
  readonly start: number;
  readonly end: number;
}

/** Reads the values at a fixed list of paths out of JSON texts. */
export interface JsonArgumentsReader {
  /**
   * The values at each path in `text`, in text order per path (one per
   * occurrence of a repeated key), or undefined when the text is not a JSON
   * object.
   */
  read(text: string): TextValue[][] | undefined;
}

/** How far along one path a position in the text is. */
interface Progress {
  /** Which path (index into the paths given). */
  readonly path: number;
  /** Segments whose key has been matched. */
  readonly matched: number;
  /** Array levels still to enter before the last matched segment's value is reached. */
  readonly arrays: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** A reader for `paths` (a tool's checked arguments, in their order). */
export function createJsonArgumentsReader(paths: readonly ArgumentPath[]): JsonArgumentsReader {
  const lengths = paths.map((p) => p.segments.length);
  const keys = paths.map((p) => p.segments.map((s) => s.key));
  const arraysAfter = paths.map((p) => p.segments.map((s) => s.arrays));
  const root: readonly Progress[] = paths.map((_, path) => ({ path, matched: 0, arrays: 0 }));
  let text = '';
  let found: TextValue[][] = [];

  /** Reads the value at `pos` for `progress`; returns the position after it. */
  function visit(pos: number, progress: readonly Progress[], location: Location): number {
    const c = text.charCodeAt(pos);
    let end = -1;
    if (c === OPEN_OBJECT) {
      let inside: Progress[] | undefined;
      for (const p of progress) {
        if (p.arrays === 0 && p.matched < lengths[p.path]!) (inside ??= []).push(p);
      }
      if (inside !== undefined) end = visitObject(pos, inside, location);
    } else if (c === OPEN_ARRAY) {
      let inside: Progress[] | undefined;
      for (const p of progress) {
        if (p.arrays > 0) {
          (inside ??= []).push({ path: p.path, matched: p.matched, arrays: p.arrays - 1 });
        }
      }
      if (inside !== undefined) end = visitArray(pos, inside, location);
    }
    if (end < 0) end = skipValue(text, pos);
    for (const p of progress) {
      if (p.arrays === 0 && p.matched === lengths[p.path]) {
        found[p.path]!.push({ value: valueOf(text, pos, end), location, start: pos, end });
      }
    }
    return end;
  }

  function visitObject(open: number, progress: readonly Progress[], location: Location): number {
    let pos = skipSpace(text, open + 1);
    if (text.charCodeAt(pos) === CLOSE_OBJECT) return pos + 1;
    for (;;) {
      const keyEnd = stringEnd(text, pos);
      let next: Progress[] | undefined;
      let key: string | undefined;
      for (const p of progress) {
        const wanted = keys[p.path]![p.matched]!;
        if (!keyIs(text, pos, keyEnd, wanted)) continue;
        key = wanted;
        const arrays = arraysAfter[p.path]![p.matched]!;
        (next ??= []).push({ path: p.path, matched: p.matched + 1, arrays });
      }
      pos = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the colon
      pos = next === undefined ? skipValue(text, pos) : visit(pos, next, [...location, key!]);
      pos = skipSpace(text, pos);
      if (text.charCodeAt(pos) !== COMMA) return pos + 1;
      pos = skipSpace(text, pos + 1);
    }
  }

  function visitArray(open: number, progress: readonly Progress[], location: Location): number {
    let pos = skipSpace(text, open + 1);
    if (text.charCodeAt(pos) === CLOSE_ARRAY) return pos + 1;
    for (let index = 0; ; index++) {
      pos = skipSpace(text, visit(pos, progress, [...location, index]));
      if (text.charCodeAt(pos) !== COMMA) return pos + 1;
      pos = skipSpace(text, pos + 1);
    }
  }

  return {
    read(input) {
      // JSON.parse decides what is JSON, exactly as a server would; the scan
      // then only reads a text known to be valid.
      let parsed: unknown;
      try {
        parsed = JSON.parse(input);
      } catch {
        return undefined;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
      text = input;
      found = paths.map(() => []);
      try {
        visit(skipSpace(text, 0), root, NO_LOCATION);
        return found;
      } finally {
        // Keep neither the text nor what was found alive until the next call.
        text = '';
        found = [];
      }
    },
  };
}

type Location = readonly (string | number)[];
const NO_LOCATION: Location = Object.freeze([]);

/**
 * Whether the string token `[start, end)` denotes `key`. Escapes only
 * shorten text, so a token no longer than `key` matches only if it is `key`
 * as written, and only a longer one that has an escape needs decoding.
 */
function keyIs(text: string, start: number, end: number, key: string): boolean {
  const written = end - start - 2;
  if (written < key.length) return false;
  if (written === key.length) return key.indexOf('\\') < 0 && text.startsWith(key, start + 1);
  for (let i = start + 1; i < end - 1; i++) {
    if (text.charCodeAt(i) === BACKSLASH) return stringValue(text, start, end) === key;
  }
  return false;
}

function valueOf(text: string, start: number, end: number): unknown {
  return text.charCodeAt(start) === QUOTE
    ? stringValue(text, start, end)
    : (JSON.parse(text.slice(start, end)) as unknown);
}

/** The string a token denotes; most have no escapes and are a plain slice. */
function stringValue(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.indexOf('\\') < 0 ? inner : (JSON.parse(text.slice(start, end)) as string);
}

function skipSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return pos;
    pos++;
  }
}

/** The position after the string token opening at `open`. */
function stringEnd(text: string, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The position after the value at `pos`, without reading it: no recursion, no allocation. */
function skipValue(text: string, pos: number): number {
  const c = text.charCodeAt(pos);
  if (c === QUOTE) return stringEnd(text, pos);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    // A number or a literal: it ends where a separator or whitespace starts.
    let end = pos + 1;
    for (;;) {
      const d = text.charCodeAt(end);
      if (
        Number.isNaN(d) || // the end of the text
        d === COMMA ||
        d === CLOSE_OBJECT ||
        d === CLOSE_ARRAY ||
        d === 0x20 ||
        d === 0x0a ||
        d === 0x0d ||
        d === 0x09
      ) {
        return end;
      }
      end++;
    }
  }
  let depth = 0;
  for (let i = pos; ; i++) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) i = stringEnd(text, i) - 1;
    else if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
}
