/**
 * The JSON grammar (RFC 8259, what JSON.parse accepts), as positions in a
 * text: each function takes the position where a token starts and returns
 * the position after it, or `INVALID`. Nothing is allocated and nothing
 * recurses, so neither a long string nor deep nesting costs more than a pass
 * over the characters.
 */

/** What a function returns when the text at the position is not what JSON allows there. */
export const INVALID = -1;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** The position of the first character at or after `pos` that is not JSON whitespace. */
export function skipSpace(text: string, pos: number): number {
  for (;;) {
    const c = text.charCodeAt(pos);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return pos;
    pos++;
  }
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** After the string token opening at `open` (which must be a quote). */
export function stringEnd(text: string, open: number): number {
  if (text.charCodeAt(open) !== QUOTE) return INVALID;
  const length = text.length;
  let i = open + 1;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return INVALID;
    if (c !== BACKSLASH) {
      i++;
      continue;
    }
    const e = text.charCodeAt(i + 1);
    if (e === 0x75 /* u */) {
      const h = i + 2;
      const c1 = text.charCodeAt(h);
      const c2 = text.charCodeAt(h + 1);
      const c3 = text.charCodeAt(h + 2);
      const c4 = text.charCodeAt(h + 3);
      if (!(isHex(c1) && isHex(c2) && isHex(c3) && isHex(c4))) return INVALID;
      i += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 0x2f || // /
      e === 0x62 || // b
      e === 0x66 || // f
      e === 0x6e || // n
      e === 0x72 || // r
      e === 0x74 // t
    ) {
      i += 2;
    } else return INVALID;
  }
  return INVALID;
}

/** After the number starting at `pos`: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)? */
function numberEnd(text: string, pos: number): number {
  let i = pos;
  if (text.charCodeAt(i) === 0x2d /* - */) i++;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) {
    i++;
    while (isDigit(text.charCodeAt(i))) i++;
  } else return INVALID;
  if (text.charCodeAt(i) === 0x2e /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return INVALID;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return INVALID;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/** After the string, number or literal at `pos` (not an object or array). */
export function scalarEnd(text: string, pos: number): number {
  const c = text.charCodeAt(pos);
  if (c === QUOTE) return stringEnd(text, pos);
  if (c === 0x74) return text.startsWith('true', pos) ? pos + 4 : INVALID;
  if (c === 0x66) return text.startsWith('false', pos) ? pos + 5 : INVALID;
  if (c === 0x6e) return text.startsWith('null', pos) ? pos + 4 : INVALID;
  return numberEnd(text, pos);
}

/**
 * Where a member's value starts, given the end of its key token (or
 * `INVALID`): past the colon and the space around it.
 */
export function memberValueStart(text: string, keyEnd: number): number {
  if (keyEnd === INVALID) return INVALID;
  const colon = skipSpace(text, keyEnd);
  if (text.charCodeAt(colon) !== COLON) return INVALID;
  return skipSpace(text, colon + 1);
}

// Containers open while `skipValue` reads: a growing stack of their closers.
// Grown for a deeply nested text, it is given back once that text is read:
// the module keeps at most KEPT_CLOSERS, not the deepest nesting ever seen.
const KEPT_CLOSERS = 1_024;
let closers = new Uint8Array(64);

/** After the value at `pos`, whatever it is, read but not kept. */
export function skipValue(text: string, pos: number): number {
  const end = skipNested(text, pos);
  if (closers.length > KEPT_CLOSERS) closers = new Uint8Array(64);
  return end;
}

/** The closer stack's length now (tests: what the module holds between reads). */
export function heldCloserCapacity(): number {
  return closers.length;
}

function skipNested(text: string, pos: number): number {
  let depth = 0;
  for (;;) {
    // A value starts at `pos`.
    const c = text.charCodeAt(pos);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const inside = skipSpace(text, pos + 1);
      const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (text.charCodeAt(inside) === close) {
        pos = inside + 1;
      } else {
        if (depth === closers.length) {
          const grown = new Uint8Array(2 * depth);
          grown.set(closers);
          closers = grown;
        }
        closers[depth++] = close;
        pos = c === OPEN_OBJECT ? memberValueStart(text, stringEnd(text, inside)) : inside;
        if (pos === INVALID) return INVALID;
        continue;
      }
    } else {
      pos = scalarEnd(text, pos);
      if (pos === INVALID) return INVALID;
    }
    // After a value: close what ends here, or move to the next member.
    for (;;) {
      if (depth === 0) return pos;
      pos = skipSpace(text, pos);
      const d = text.charCodeAt(pos);
      const close = closers[depth - 1];
      if (d === close) {
        depth--;
        pos++;
        continue;
      }
      if (d !== COMMA) return INVALID;
      const next = skipSpace(text, pos + 1);
      pos = close === CLOSE_OBJECT ? memberValueStart(text, stringEnd(text, next)) : next;
      if (pos === INVALID) return INVALID;
      break;
    }
  }
}
