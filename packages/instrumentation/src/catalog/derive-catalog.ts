import type { CheckedArguments } from '@argcheck/core';
import { stringEnumArguments } from './schema-enums.js';

/** Arguments and value sets read from one tool catalog. */
export interface DerivedCatalog {
  /** Only arguments the configuration does not already name. */
  checkedArguments: CheckedArguments;
  /** Set name → members, from string `enum`s in the tools' input schemas. */
  sets: Readonly<Record<string, readonly string[]>>;
}

export interface DeriveOptions {
  /**
   * The configured paths of the tool a catalog's tool name stands for (its
   * own name, or the MCP tool's name under a framework's prefix); derivation
   * leaves those arguments alone.
   */
  readonly configuredFor: (tool: string) => Readonly<Record<string, string>> | undefined;
  /** At most this many derived arguments; the rest are dropped and counted. */
  readonly maxCheckedArguments: number;
  /** Where the catalog comes from, the first part of a set name: `mcp`, or a framework's name. @default 'mcp' */
  readonly origin?: string | undefined;
  /** Tells catalogs of one origin apart (an MCP server's `serverInfo.name`), so same-named tools get distinct sets. */
  readonly scopeName?: string | undefined;
}

export interface Derivation {
  readonly catalog: DerivedCatalog;
  /** Arguments left unchecked because of `maxCheckedArguments`. */
  readonly dropped: number;
  /** Arguments left unchecked because their set name was too long or already taken. */
  readonly unnamed: readonly string[];
}

/**
 * Set names become metric attribute values. They are built from the catalog
 * only, and one longer than this is not derived at all rather than truncated
 * (truncation could merge two different sets under one name).
 */
export const MAX_SET_NAME_LENGTH = 256;

/**
 * Members derived from one catalog in all: past it, further arguments (in
 * the sorted order the cap uses) are dropped and counted, so one listing
 * costs a bounded compile however many large enums it carries.
 */
export const MAX_CATALOG_MEMBERS = 100_000;

/** A scope or tool name that cannot be written bare: it holds a separator or a quote. */
const NEEDS_QUOTES = /[/."]/;

/**
 * A scope (server) or tool name as it stands in a derived set name: as it is
 * when it holds none of `/`, `.` and `"`, else as a JSON string
 * (`"mcp-servers/everything"`). A bare name ends at the first `/` or `.`, a
 * quoted one at its closing quote, so where each part ends is never a guess
 * (docs/telemetry.md, "Derived set names").
 */
function namePart(name: string): string {
  return NEEDS_QUOTES.test(name) ? JSON.stringify(name) : name;
}

/**
 * `<origin>:<scope>/<tool>.<path>` (`mcp:shop/refund_order.reason_code`), or
 * `<origin>:<tool>.<path>` without a scope name; the scope and the tool are
 * quoted when they hold `/`, `.` or `"`
 * (`mcp:"mcp-servers/everything"/get-annotated-message.messageType`).
 * Argument paths never hold a key with `.`, `[` or `]` (schema-enums.ts).
 */
export function derivedSetName(
  origin: string,
  scopeName: string | undefined,
  tool: string,
  path: string,
): string {
  const scope = scopeName ? `${namePart(scopeName)}/` : '';
  return `${origin}:${scope}${namePart(tool)}.${path}`;
}

interface Candidate {
  tool: string;
  path: string;
  members: readonly string[];
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compare(a: Candidate, b: Candidate): number {
  if (a.tool !== b.tool) return a.tool < b.tool ? -1 : 1;
  if (a.path === b.path) return 0;
  return a.path < b.path ? -1 : 1;
}

function candidates(
  tools: readonly unknown[],
  configuredFor: DeriveOptions['configuredFor'],
): Candidate[] {
  const seenTools = new Set<string>();
  const found: Candidate[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name.length === 0) continue;
    const name = tool.name;
    // A catalog that lists a name twice is malformed; the first definition wins.
    if (seenTools.has(name)) continue;
    seenTools.add(name);
    const named = configuredFor(name);
    let enums: ReturnType<typeof stringEnumArguments>;
    try {
      enums = stringEnumArguments(tool.inputSchema);
    } catch {
      // A schema whose getters throw, or a Proxy: this tool derives nothing, the others do.
      continue;
    }
    for (const { path, members } of enums) {
      if (named !== undefined && Object.hasOwn(named, path)) continue;
      found.push({ tool: name, path, members });
    }
  }
  // Sorted so the cap keeps the same arguments whatever order the server lists tools in.
  return found.sort(compare);
}

/**
 * Value sets and checked arguments from one server's tool catalog (the
 * `tools` of a `tools/list` result). Pure and deterministic.
 */
export function deriveCatalog(tools: readonly unknown[], options: DeriveOptions): Derivation {
  const all = candidates(tools, options.configuredFor);
  const cap = Math.max(0, Math.floor(options.maxCheckedArguments));
  const kept = all.slice(0, cap);
  const sets = new Map<string, readonly string[]>();
  const byTool = new Map<string, [string, string][]>();
  const unnamed: string[] = [];
  let memberBudget = MAX_CATALOG_MEMBERS;
  let overBudget = 0;
  for (const { tool, path, members } of kept) {
    if (members.length > memberBudget) {
      overBudget++;
      continue;
    }
    const set = derivedSetName(options.origin ?? 'mcp', options.scopeName, tool, path);
    if (set.length > MAX_SET_NAME_LENGTH || sets.has(set)) {
      unnamed.push(`${tool}:${path}`);
      continue;
    }
    sets.set(set, members);
    memberBudget -= members.length;
    const entries = byTool.get(tool) ?? [];
    entries.push([path, set]);
    byTool.set(tool, entries);
  }
  // Object.fromEntries defines own properties, so a tool called `__proto__` stays data.
  const checkedArguments = Object.fromEntries(
    [...byTool].map(([tool, entries]) => [tool, Object.fromEntries(entries)]),
  );
  return {
    catalog: { checkedArguments, sets: Object.fromEntries(sets) },
    dropped: all.length - kept.length + overBudget,
    unnamed,
  };
}
