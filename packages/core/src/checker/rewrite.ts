/** A replacement for the value at one concrete location. */
export interface Rewrite {
  readonly location: readonly (string | number)[];
  readonly value: string;
  /** For JSON-text arguments: the string token to replace, quotes included. */
  readonly span?: TextSpan;
}

/** Where a token sits in a text: `[start, end)`. */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
}

function copyOf(node: unknown): Record<string | number, unknown> {
  return (Array.isArray(node) ? [...(node as unknown[])] : { ...(node as object) }) as Record<
    string | number,
    unknown
  >;
}

/**
 * Apply rewrites without touching the input: every container on a rewritten
 * path is copied once, everything else is shared with the original.
 */
export function applyRewrites(root: unknown, rewrites: readonly Rewrite[]): unknown {
  const copies = new Map<unknown, Record<string | number, unknown>>();
  const copied = (original: unknown): Record<string | number, unknown> => {
    let copy = copies.get(original);
    if (!copy) {
      copy = copyOf(original);
      copies.set(original, copy);
      copies.set(copy, copy);
    }
    return copy;
  };
  const result = copied(root);
  for (const { location, value } of rewrites) {
    let parent = result;
    for (let i = 0; i < location.length - 1; i++) {
      const key = location[i] as string | number;
      const child = copied(parent[key]);
      defineOwn(parent, key, child);
      parent = child;
    }
    defineOwn(parent, location[location.length - 1] as string | number, value);
  }
  return result;
}

/**
 * Apply rewrites to a JSON text: each rewritten string token is replaced by
 * the JSON encoding of its new value, and every other character of the text
 * stays as it was (numbers, escapes, key order, whitespace).
 */
export function spliceRewrites(text: string, rewrites: readonly Rewrite[]): string {
  const spans = rewrites
    .filter((r): r is Rewrite & { span: TextSpan } => r.span !== undefined)
    .sort((a, b) => a.span.start - b.span.start);
  let out = '';
  let at = 0;
  for (const { span, value } of spans) {
    if (span.start < at) continue;
    out += text.slice(at, span.start) + JSON.stringify(value);
    at = span.end;
  }
  return out + text.slice(at);
}

// Plain assignment to a key named `__proto__` would set the prototype instead
// of the property the arguments carry.
function defineOwn(target: Record<string | number, unknown>, key: string | number, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
