const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * What JSON.parse of `text` would cost beyond its size, read in one pass
 * without building anything: `too_deep` when objects and arrays nest more
 * than `maxDepth` levels, `too_many_containers` when it opens more than
 * `maxContainers` of them, otherwise undefined. JSON.parse builds every level
 * and every container before anything can look at it, and each costs tens
 * of bytes for its two characters: one line of 30 million brackets, or a
 * 63 MB line of `{},{},…`, takes gigabytes. Invalid JSON answers as far as it
 * is read; JSON.parse then says what is wrong with it.
 */
export function jsonCost(
  text: string,
  maxDepth: number,
  maxContainers: number,
): 'too_deep' | 'too_many_containers' | undefined {
  let depth = 0;
  let containers = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i === -1) return undefined;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return 'too_deep';
      containers += 1;
      if (containers > maxContainers) return 'too_many_containers';
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return -1;
}
