/**
 * Finds the string enumerations in one tool's JSON Schema `inputSchema`.
 *
 * Covered: `enum` whose members are all strings, on a schema that admits only
 * strings (`type` absent, `"string"` or `["string"]`); a string `const` (a
 * one-member set); `anyOf`/`oneOf` whose every branch is one of those (a union
 * of literals). Walked: object `properties` and array `items` (a single
 * schema), giving paths in the core syntax (`filters.status`,
 * `items[].warehouse_code`, `tags[]`).
 *
 * Bounded: at most `MAX_SCHEMA_NODES` schema nodes per tool, unions
 * `MAX_DEPTH` deep, and enums of at most `MAX_ENUM_MEMBERS` members.
 *
 * Left out on purpose, because a value set there would flag values the server
 * accepts: a union with any other branch (`anyOf: [{ enum }, { type: 'null' }]`,
 * how nullable enums are written), enums that mix types, `allOf`, `$ref`,
 * `additionalProperties`, `patternProperties`, tuple `items`, and property
 * names the path syntax cannot spell (containing `.`, `[` or `]`).
 */

/** One argument whose schema is a closed list of strings. */
export interface EnumArgument {
  readonly path: string;
  /** Distinct members in schema order. */
  readonly members: readonly string[];
}

/** Deeper than any real tool schema; bounds the walk on hostile input. */
const MAX_DEPTH = 16;
/**
 * Schema nodes visited per tool, `anyOf`/`oneOf` branches included: a
 * 20,000-deep union or a shared schema graph 2^26 wide must not stall the
 * agent. Past it the tool's remaining arguments are not derived; other tools'
 * are.
 */
export const MAX_SCHEMA_NODES = 10_000;
/**
 * Members of one enum (or union of literals): a larger one is not derived. A
 * closed list that long is no enumeration a model chooses from, and reading
 * it on every listing would hold the event loop.
 */
export const MAX_ENUM_MEMBERS = 10_000;

/** Work left for one tool's schema. */
interface Budget {
  nodes: number;
}
const PATH_KEY = /^[^.[\]]+$/;

type Schema = Readonly<Record<string, unknown>>;

function isSchema(node: unknown): node is Schema {
  return typeof node === 'object' && node !== null && !Array.isArray(node);
}

function admitsOnlyStrings(type: unknown): boolean {
  if (type === undefined || type === 'string') return true;
  return Array.isArray(type) && type.length > 0 && type.every((t) => t === 'string');
}

function closedStrings(node: Schema, budget: Budget, depth: number): readonly string[] | undefined {
  if (--budget.nodes < 0 || depth > MAX_DEPTH) return undefined;
  if (!admitsOnlyStrings(node.type)) return undefined;
  const { enum: members, const: constant } = node;
  if (Array.isArray(members)) {
    if (members.length === 0 || members.length > MAX_ENUM_MEMBERS) return undefined;
    if (!members.every((m) => typeof m === 'string')) return undefined;
    return [...new Set<string>(members)];
  }
  if (typeof constant === 'string') return [constant];
  const branches = Array.isArray(node.anyOf) ? node.anyOf : node.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const union = new Set<string>();
  for (const branch of branches) {
    const part = isSchema(branch) ? closedStrings(branch, budget, depth + 1) : undefined;
    if (part === undefined) return undefined;
    for (const member of part) union.add(member);
    if (union.size > MAX_ENUM_MEMBERS) return undefined;
  }
  return [...union];
}

/** Every closed string list in `inputSchema`, in schema order. Never throws on odd input. */
export function stringEnumArguments(inputSchema: unknown): EnumArgument[] {
  const found: EnumArgument[] = [];
  const budget: Budget = { nodes: MAX_SCHEMA_NODES };
  const walk = (node: unknown, path: string, depth: number): void => {
    if (!isSchema(node) || depth > MAX_DEPTH || budget.nodes <= 0) return;
    if (path !== '') {
      const members = closedStrings(node, budget, 0);
      if (members !== undefined) {
        found.push({ path, members });
        return;
      }
    }
    if (isSchema(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        if (PATH_KEY.test(key)) walk(child, path === '' ? key : `${path}.${key}`, depth + 1);
      }
    }
    // The arguments object itself is never an array, so `items` counts below the root only.
    if (path !== '' && isSchema(node.items)) walk(node.items, `${path}[]`, depth + 1);
  };
  walk(inputSchema, '', 0);
  return found;
}
