/**
 * The quick read of a JSON text whose checked arguments are all simple keys
 * (`reason_code`): one pass over a flat object with no escape anywhere,
 * checked against the JSON grammar as it goes (`json-tokens.ts`), finding
 * each key's string value without building the object. It gives up — and
 * the text reader (`json-arguments.ts`) takes the text — wherever the two
 * could differ: an escape, a checked key written twice, a checked key whose
 * value is not a string, a text that is not one JSON object.
 */
import {
  CLOSE_OBJECT,
  COMMA,
  INVALID,
  memberValueStart,
  OPEN_OBJECT,
  QUOTE,
  skipSpace,
  skipValue,
  stringEnd,
} from './json-tokens.js';

/** Whether `key` is written at `pos` in `text` (a loop: `startsWith` costs more for a short key). */
function writtenAt(text: string, pos: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    if (text.charCodeAt(pos + i) !== key.charCodeAt(i)) return false;
  }
  return true;
}

/** What `readFlat` puts for a key the text does not have. */
export const ABSENT: unique symbol = Symbol('absent');

/**
 * Fill `out[i]` with the string value of `keys[i]` in `text`, or `ABSENT`;
 * false when the quick read does not take the text (see the file comment).
 * Allocates the values found and nothing else.
 */
export function readFlat(
  text: string,
  keys: readonly string[],
  out: (string | typeof ABSENT)[],
): boolean {
  if (text.indexOf('\\') !== -1) return false;
  for (let i = 0; i < keys.length; i++) out[i] = ABSENT;
  let pos = skipSpace(text, 0);
  if (text.charCodeAt(pos) !== OPEN_OBJECT) return false;
  pos = skipSpace(text, pos + 1);
  if (text.charCodeAt(pos) === CLOSE_OBJECT) return skipSpace(text, pos + 1) === text.length;
  for (;;) {
    const keyEnd = stringEnd(text, pos);
    if (keyEnd === INVALID) return false;
    const length = keyEnd - pos - 2;
    let matched = -1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      if (key.length === length && writtenAt(text, pos + 1, key)) {
        matched = i;
        break;
      }
    }
    const start = memberValueStart(text, keyEnd);
    if (start === INVALID) return false;
    if (matched === -1) {
      pos = skipValue(text, start);
    } else {
      if (out[matched] !== ABSENT || text.charCodeAt(start) !== QUOTE) return false;
      pos = stringEnd(text, start);
      if (pos === INVALID) return false;
      out[matched] = text.slice(start + 1, pos - 1);
    }
    if (pos === INVALID) return false;
    pos = skipSpace(text, pos);
    const c = text.charCodeAt(pos);
    if (c === CLOSE_OBJECT) return skipSpace(text, pos + 1) === text.length;
    if (c !== COMMA) return false;
    pos = skipSpace(text, pos + 1);
  }
}
