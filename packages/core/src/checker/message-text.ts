/**
 * Text that goes into a repair message comes from owners (members), from
 * tool catalogs (MCP server and tool names) and from the model (the value):
 * it is escaped so that the message is well-formed UTF-16 and shows, rather
 * than acts on, characters that change how text around them reads.
 */

/**
 * C0 and C1 controls (DEL included), the line and paragraph separators,
 * every bidi control (embeddings, overrides, isolates and the marks), and
 * lone surrogates (`\p{Cs}` in a `u` pattern matches only unpaired ones).
 */
const SHOWN_ESCAPED = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]|\p{Cs}/gu;

function escapeUnit(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with those characters written as `\uXXXX` escapes. */
export function escaped(text: string): string {
  SHOWN_ESCAPED.lastIndex = 0;
  return SHOWN_ESCAPED.test(text) ? text.replace(SHOWN_ESCAPED, escapeUnit) : text;
}

/**
 * At most the first `limit` code units of `text`, escaped. Escaping only
 * lengthens text, so the result is at least `limit` characters long when
 * `text` was: enough for a caller who keeps `limit` characters.
 */
export function escapedPrefix(text: string, limit: number): string {
  return escaped(text.length > limit ? text.slice(0, limit) : text);
}

/** The JSON string literal of (at most the first `limit` code units of) `text`, escaped. */
export function quotedPrefix(text: string, limit: number): string {
  // JSON.stringify escapes quotes, backslashes, C0 controls and lone
  // surrogates (a pair cut by the slice included); `escaped` does the rest.
  return escaped(JSON.stringify(text.length > limit ? text.slice(0, limit) : text));
}

/**
 * `text` cut to at most `max` characters, ending with `…` when cut, and
 * never between the two halves of a surrogate pair.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = Math.max(0, max - 1);
  const last = text.charCodeAt(keep - 1);
  if (keep > 0 && last >= 0xd800 && last <= 0xdbff) keep--;
  return `${text.slice(0, keep)}…`;
}
