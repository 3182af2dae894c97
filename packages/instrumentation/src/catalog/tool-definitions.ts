/**
 * `tool_definition`: what the model saw of a tool — its description and
 * input schema as the scope listed them (an MCP `tools/list`, a framework's
 * tool objects) — as 12 hex digits of a SHA-256 over their canonical JSON.
 * The same text gives the same value in every process; a rewritten
 * description gives a second value for the same tool for as long as both
 * run. The first time a (tool, value) pair is seen, a log record says which
 * text it stands for (`EVENT_TOOL_ARGUMENT_TOOL_DEFINITION`), so that
 * `argcheck report` and a log query can name it.
 */
import { createHash } from 'node:crypto';
import type { ToolListings } from './derived-sets.js';

export const DEFINITION_HASH_LENGTH = 12;

/** Longest description and schema text a definition record carries. */
export const MAX_DEFINITION_TEXT = 4_096;

export interface ToolDefinition {
  readonly hash: string;
  readonly description: string;
  /** The input schema as canonical JSON (`''` when none was listed). */
  readonly inputSchema: string;
}

/** JSON with object keys sorted at every level, so that key order does not change the hash. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > 64) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    const parts: string[] = [];
    for (const key of keys) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${canonicalJson(item, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  }
  const text = JSON.stringify(value);
  return text === undefined ? 'null' : text;
}

export function definitionOf(entry: unknown): ToolDefinition {
  const fields =
    typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
  const description = typeof fields.description === 'string' ? fields.description : '';
  const schema = fields.inputSchema;
  const inputSchema =
    schema === undefined || schema instanceof Promise ? '' : canonicalJson(schema);
  const hash = createHash('sha256')
    .update(JSON.stringify([description, inputSchema]))
    .digest('hex')
    .slice(0, DEFINITION_HASH_LENGTH);
  return { hash, description, inputSchema };
}

/**
 * (tool, value) pairs a definition record is written for, at most: a server
 * that renames its tools on every listing must not turn listings into an
 * unbounded stream of records (the metric values are bounded apart).
 */
export const MAX_DEFINITION_RECORDS = 10_000;

export interface ToolDefinitions {
  /** The definition hash of `tool` as `scope` listed it last, if it did. Never throws. */
  of(scope: object, tool: string): string | undefined;
}

export function createToolDefinitions(
  listings: ToolListings,
  firstSeen: (tool: string, definition: ToolDefinition) => void,
): ToolDefinitions {
  /** By the listed entry: a listing keeps its entry objects until the scope lists again. */
  const hashes = new WeakMap<object, string>();
  const seen = new Set<string>();
  return {
    of(scope, tool) {
      try {
        const entry = listings.get(scope)?.tools.get(tool);
        if (typeof entry !== 'object' || entry === null) return undefined;
        const known = hashes.get(entry);
        if (known !== undefined) return known;
        const definition = definitionOf(entry);
        hashes.set(entry, definition.hash);
        const key = JSON.stringify([tool, definition.hash]);
        if (!seen.has(key) && seen.size < MAX_DEFINITION_RECORDS) {
          seen.add(key);
          firstSeen(tool, definition);
        }
        return definition.hash;
      } catch {
        return undefined;
      }
    },
  };
}
