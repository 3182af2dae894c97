/**
 * Text from a record (a tool, argument, set or shape name, a value, a parse
 * error that quotes the line) as `argcheck report` prints it: every character
 * a terminal or a markdown viewer would act on instead of showing — C0 and C1
 * controls (ESC, BEL, CR, U+009B), DEL, bidi controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E/F, U+061C), line and paragraph separators, a
 * byte-order mark, a lone surrogate — is written as a `\uXXXX` escape. The
 * rest is kept as it is.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Outside C0 (which JSON.stringify escapes) and surrogates (which it escapes when lone): the rest of the set above. */
const UNSAFE_IN_JSON =
  /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** `JSON.stringify` output with the characters above escaped too: the same JSON value, printable. */
export function printableJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
