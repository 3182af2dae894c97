/** A replacement for the value at one concrete location. */
export interface Rewrite {
  readonly location: readonly (string | number)[];
  readonly value: string;
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
