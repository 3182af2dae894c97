/**
 * Arguments read once. An MCP client reads a call's `arguments` again when it
 * sends them (`JSON.stringify`, or an in-memory transport handing the object
 * over), so a getter or a Proxy could send something other than what was
 * checked. The seam checks a copy read once and sends that copy: plain
 * objects and arrays are copied as `JSON.stringify` reads them (own
 * enumerable keys, `toJSON` applied with the key it would get; symbol keys,
 * which it leaves out, are carried as they were read); other values are
 * kept. Bounded: past `MAX_NODES` copied values or `MAX_DEPTH`,
 * what is left is kept as it is (decision 0024).
 */

const MAX_NODES = 100_000;
const MAX_DEPTH = 64;

interface Budget {
  nodes: number;
}

function copy(value: unknown, key: string, depth: number, budget: Budget): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH || --budget.nodes < 0) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    const replaced: unknown = toJSON.call(value, key);
    // What toJSON gave is serialised as it is, without calling toJSON again.
    return typeof replaced === 'object' && replaced !== null
      ? copyPlain(replaced, depth, budget)
      : replaced;
  }
  return copyPlain(value, depth, budget);
}

function copyPlain(value: object, depth: number, budget: Budget | undefined): unknown {
  if (Array.isArray(value)) {
    const length = value.length;
    const out = new Array<unknown>(length);
    budget ??= { nodes: MAX_NODES - 1 };
    for (let i = 0; i < length; i++) out[i] = copy(value[i], String(i), depth + 1, budget);
    return out;
  }
  // A spread reads each own enumerable property once, getters included, and
  // defines (never sets) them on a plain object: a key `__proto__` stays
  // data. Only nested objects are copied further, found by `for…in` over the
  // copy (its enumeration cache, no key array), which also yields an
  // enumerable key inherited from a patched `Object.prototype`: skipped.
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in out) {
    const item = out[key];
    if (typeof item !== 'object' || item === null || !Object.hasOwn(out, key)) continue;
    // Made at the first nested value: the usual arguments are flat.
    budget ??= { nodes: MAX_NODES - 1 };
    const copied = copy(item, key, depth + 1, budget);
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = copied;
  }
  return out;
}

/** `value` as it would be serialised under `key`, read once. Throws what a getter, trap or `toJSON` throws. */
export function readOnce(value: unknown, key = 'arguments'): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // `copy` at depth 0, its budget made only for nested values (one node spent on this one).
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return copyPlain(value, 0, undefined);
  const replaced: unknown = toJSON.call(value, key);
  return typeof replaced === 'object' && replaced !== null
    ? copyPlain(replaced, 0, undefined)
    : replaced;
}
