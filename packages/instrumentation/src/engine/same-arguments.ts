/**
 * Whether two tool calls carry the same arguments: the arguments a framework
 * tool was run with, and those an MCP call made inside it sends. Structural,
 * order-insensitive for object keys; a JSON text (OpenAI-style arguments) is
 * compared as what it parses to. Bounded: arguments too large or too deep to
 * compare are not the same, so the inner call is checked and counted on its
 * own rather than let through unchecked.
 */

const MAX_NODES = 10_000;
const MAX_DEPTH = 64;
/** JSON texts longer than this are not parsed to compare. */
const MAX_TEXT_LENGTH = 1 << 20;

function parsed(value: unknown): unknown {
  if (typeof value !== 'string' || value.length > MAX_TEXT_LENGTH) return value;
  const first = value.trimStart().charCodeAt(0);
  // Only a JSON object or array is taken for arguments; any other string stays a string.
  if (first !== 0x7b && first !== 0x5b) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * Whether two values are the same JSON-like structure (object keys in any
 * order), within the bound: false past it. Never throws.
 */
export function sameStructure(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  let budget = MAX_NODES;
  const equal = (x: unknown, y: unknown, depth: number): boolean => {
    if (x === y) return true;
    if (--budget < 0 || depth > MAX_DEPTH) return false;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) {
      return Number.isNaN(x) && Number.isNaN(y);
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const other = y as unknown[];
      if (x.length !== other.length) return false;
      for (let i = 0; i < x.length; i++) if (!equal(x[i], other[i], depth + 1)) return false;
      return true;
    }
    const left = x as Record<string, unknown>;
    const right = y as Record<string, unknown>;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(right, key) || !equal(left[key], right[key], depth + 1)) return false;
    }
    return true;
  };
  try {
    return equal(a, b, 0);
  } catch {
    // A hostile getter or proxy: not provably the same.
    return false;
  }
}

export function sameArguments(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return sameStructure(parsed(a), parsed(b));
  } catch {
    // A hostile getter or proxy: not provably the same call.
    return false;
  }
}
