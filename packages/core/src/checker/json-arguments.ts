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
 *
 * The text is read once, checked against the JSON grammar as it goes
 * (`json-tokens.ts`): a text JSON.parse would refuse is unreadable. Only the
 * keys of objects on a configured path are compared, and only found values
 * are made into strings.
 */
import type { ArgumentPath } from './argument-path.js';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COMMA,
  INVALID,
  memberValueStart,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  skipSpace,
  skipValue,
  stringEnd,
} from './json-tokens.js';

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

/** A reader for `paths` (a tool's checked arguments, in their order). */
export function createJsonArgumentsReader(paths: readonly ArgumentPath[]): JsonArgumentsReader {
  const lengths = paths.map((p) => p.segments.length);
  const keys = paths.map((p) => p.segments.map((s) => s.key));
  const arraysAfter = paths.map((p) => p.segments.map((s) => s.arrays));
  // Every state a path can be in, made once, each also as a list of one (the
  // common case: one path through a position), so that reading an array of
  // thousands of elements allocates what it finds and little else.
  const states = paths.map((p, path) =>
    Array.from({ length: p.segments.length + 1 }, (_, matched) =>
      Array.from({ length: 1 + Math.max(0, ...p.segments.map((s) => s.arrays)) }, (_, arrays) =>
        Object.freeze([Object.freeze({ path, matched, arrays })]),
      ),
    ),
  );
  const state = (path: number, matched: number, arrays: number): readonly Progress[] =>
    states[path]![matched]![arrays]!;
  const root: readonly Progress[] = paths.map((_, path) => state(path, 0, 0)[0]!);
  let text = '';
  let found: TextValue[][] = [];
  // The keys and indexes from the root to the value being read.
  const steps: (string | number)[] = [];

  /** `list` with `p` added: a list of one is a shared one. */
  function withState(
    list: readonly Progress[] | undefined,
    p: readonly Progress[],
  ): readonly Progress[] {
    return list === undefined ? p : [...list, p[0]!];
  }

  /** Reads the value at `pos` for `progress`; returns the position after it, or `INVALID`. */
  function visit(pos: number, progress: readonly Progress[]): number {
    const c = text.charCodeAt(pos);
    let end: number | undefined;
    if (c === OPEN_OBJECT) {
      let inside: readonly Progress[] | undefined;
      for (let i = 0; i < progress.length; i++) {
        const p = progress[i]!;
        if (p.arrays === 0 && p.matched < lengths[p.path]!) {
          inside = withState(inside, state(p.path, p.matched, 0));
        }
      }
      if (inside !== undefined) end = visitObject(pos, inside);
    } else if (c === OPEN_ARRAY) {
      let inside: readonly Progress[] | undefined;
      for (let i = 0; i < progress.length; i++) {
        const p = progress[i]!;
        if (p.arrays > 0) inside = withState(inside, state(p.path, p.matched, p.arrays - 1));
      }
      if (inside !== undefined) end = visitArray(pos, inside);
    }
    end ??= skipValue(text, pos);
    if (end === INVALID) return INVALID;
    let location: Location | undefined;
    for (let i = 0; i < progress.length; i++) {
      const p = progress[i]!;
      if (p.arrays === 0 && p.matched === lengths[p.path]) {
        location ??= steps.slice();
        found[p.path]!.push({ value: valueOf(text, pos, end), location, start: pos, end });
      }
    }
    return end;
  }

  function visitObject(open: number, progress: readonly Progress[]): number {
    let pos = skipSpace(text, open + 1);
    if (text.charCodeAt(pos) === CLOSE_OBJECT) return pos + 1;
    for (;;) {
      const keyEnd = stringEnd(text, pos);
      if (keyEnd === INVALID) return INVALID;
      let next: readonly Progress[] | undefined;
      let key: string | undefined;
      for (let i = 0; i < progress.length; i++) {
        const p = progress[i]!;
        const wanted = keys[p.path]![p.matched]!;
        if (!keyIs(text, pos, keyEnd, wanted)) continue;
        key = wanted;
        next = withState(next, state(p.path, p.matched + 1, arraysAfter[p.path]![p.matched]!));
      }
      pos = memberValueStart(text, keyEnd);
      if (pos === INVALID) return INVALID;
      if (next === undefined) {
        pos = skipValue(text, pos);
      } else {
        steps.push(key!);
        pos = visit(pos, next);
        steps.pop();
      }
      if (pos === INVALID) return INVALID;
      pos = skipSpace(text, pos);
      const c = text.charCodeAt(pos);
      if (c === CLOSE_OBJECT) return pos + 1;
      if (c !== COMMA) return INVALID;
      pos = skipSpace(text, pos + 1);
    }
  }

  function visitArray(open: number, progress: readonly Progress[]): number {
    let pos = skipSpace(text, open + 1);
    if (text.charCodeAt(pos) === CLOSE_ARRAY) return pos + 1;
    for (let index = 0; ; index++) {
      steps.push(index);
      pos = visit(pos, progress);
      steps.pop();
      if (pos === INVALID) return INVALID;
      pos = skipSpace(text, pos);
      const c = text.charCodeAt(pos);
      if (c === CLOSE_ARRAY) return pos + 1;
      if (c !== COMMA) return INVALID;
      pos = skipSpace(text, pos + 1);
    }
  }

  return {
    read(input) {
      text = input;
      found = paths.map(() => []);
      try {
        // The whole text is read, as JSON.parse would read it: what a server
        // would refuse is unreadable here too, whatever the checked paths saw.
        const start = skipSpace(text, 0);
        if (text.charCodeAt(start) !== OPEN_OBJECT) return undefined;
        const end = visit(start, root);
        if (end === INVALID || skipSpace(text, end) !== text.length) return undefined;
        return found;
      } finally {
        // Keep neither the text nor what was found alive until the next call.
        text = '';
        found = [];
        steps.length = 0;
      }
    },
  };
}

type Location = readonly (string | number)[];

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

/** The value of a token the reader has found valid. */
function valueOf(text: string, start: number, end: number): unknown {
  return text.charCodeAt(start) === QUOTE
    ? stringValue(text, start, end)
    : (JSON.parse(text.slice(start, end)) as unknown);
}

/** The string a valid token denotes; most have no escapes and are a plain slice. */
function stringValue(text: string, start: number, end: number): string {
  const inner = text.slice(start + 1, end - 1);
  return inner.indexOf('\\') < 0 ? inner : (JSON.parse(text.slice(start, end)) as string);
}
