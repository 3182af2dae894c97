/** The emitted value as text: strings as they are, anything else as JSON text. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch {
    // BigInt, cycles, throwing toJSON: fall through to String().
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Cut `text` to at most `max` UTF-16 code units without splitting a surrogate pair. */
export function truncate(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end), truncated: true };
}
