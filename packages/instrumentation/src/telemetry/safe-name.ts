/**
 * A name from configuration or from a tool catalog (an MCP server's tool and
 * server names, a framework tool's name, the set names derived from them), as
 * it may appear in a metric or log attribute: printable and bounded.
 *
 * A name that is already safe text of at most `MAX_NAME_LENGTH` characters is
 * kept as it is. Any other — with C0 or C1 controls (ESC, BEL, CR), DEL, bidi
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), line or
 * paragraph separators, a byte-order mark or a lone surrogate, or too long —
 * becomes its first characters with every unsafe one shown as `?`, then `~`
 * and 12 hex digits of a SHA-256 of the whole name. The mapping is a
 * function of the name alone, so every process and every instrument agree,
 * and two different names never share a series: a safe name that already
 * ends like a mark (`~` and 12 hex digits) is marked too, so no raw name can
 * pose as another's mark.
 */
import { createHash } from 'node:crypto';

export const MAX_NAME_LENGTH = 128;

const MARK_LENGTH = 13;
const UNSAFE_CHARS =
  '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ufeff]' +
  '|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const UNSAFE = new RegExp(UNSAFE_CHARS);
const UNSAFE_ALL = new RegExp(UNSAFE_CHARS, 'g');
const MARKED = /~[0-9a-f]{12}$/;

export function safeName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH && !UNSAFE.test(name) && !MARKED.test(name)) return name;
  // UTF-16 code units as they are: a lone surrogate must not hash like U+FFFD.
  const mark = createHash('sha256').update(Buffer.from(name, 'utf16le')).digest('hex').slice(0, 12);
  let prefix = name.slice(0, MAX_NAME_LENGTH - MARK_LENGTH);
  // Do not end on the first half of a pair the cut split.
  if (/[\ud800-\udbff]$/.test(prefix) && /^[\udc00-\udfff]/.test(name.slice(prefix.length))) {
    prefix = prefix.slice(0, -1);
  }
  return `${prefix.replace(UNSAFE_ALL, '?')}~${mark}`;
}
