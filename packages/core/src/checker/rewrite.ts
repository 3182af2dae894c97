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

type Container = Record<string | number, unknown>;

/**
 * A shallow copy that keeps what the container was: its prototype (a class
 * instance stays one, a null-prototype object stays one), every own
 * property with its descriptor (non-enumerable ones, symbols, getters and
 * setters, extra properties of an array), and, once the rewrites are in
 * (`finish`), which properties could not be reconfigured and whether it was
 * frozen, sealed or not extensible. What cannot be carried: private class
 * fields (`#x`) and internal slots (a Map's entries, a Date's time), which
 * live on the original only; argument paths never lead into those.
 */
function copyOf(node: unknown): { copy: Container; finish: () => void } {
  const original = node as object;
  const isArray = Array.isArray(original);
  const proto = Object.getPrototypeOf(original) as object | null;
  const copy = (isArray ? [] : Object.create(proto)) as Container;
  if (isArray && proto !== Array.prototype) Object.setPrototypeOf(copy, proto);
  const descriptors = Object.getOwnPropertyDescriptors(original);
  const fixed: PropertyKey[] = [];
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as keyof typeof descriptors] as PropertyDescriptor;
    if (isArray && key === 'length') {
      (copy as unknown as unknown[]).length = (original as unknown[]).length;
      continue;
    }
    if (descriptor.configurable === false) fixed.push(key);
    // Configurable while the rewrites go in; put back in `finish`.
    Object.defineProperty(copy, key, { ...descriptor, configurable: true });
  }
  const finish = () => {
    for (const key of fixed) {
      const descriptor = Object.getOwnPropertyDescriptor(copy, key);
      if (descriptor) Object.defineProperty(copy, key, { ...descriptor, configurable: false });
    }
    if (Object.isFrozen(original)) Object.freeze(copy);
    else if (Object.isSealed(original)) Object.seal(copy);
    else if (!Object.isExtensible(original)) Object.preventExtensions(copy);
  };
  return { copy, finish };
}

/**
 * Apply rewrites without touching the input: every container on a rewritten
 * path is copied once (keeping what it was, `copyOf`), everything else is
 * shared with the original. The rewritten property becomes a plain data
 * property holding the member (a getter there is replaced, as is the getter
 * of a container on the path); nothing else differs.
 */
export function applyRewrites(root: unknown, rewrites: readonly Rewrite[]): unknown {
  const copies = new Map<unknown, Container>();
  const finishes: (() => void)[] = [];
  const copied = (original: unknown): Container => {
    let copy = copies.get(original);
    if (!copy) {
      const made = copyOf(original);
      copy = made.copy;
      finishes.push(made.finish);
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
  for (const finish of finishes) finish();
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
