/**
 * Which configured tool a call's tool name stands for. Frameworks that load
 * an MCP server's tools often prefix their names with the server's
 * (Mastra `shop_refund_order`, LangChain's MCP adapters `shop__refund_order`
 * or `mcp__shop__refund_order`, the Claude Agent SDK `mcp__shop__refund_order`);
 * a configured `refund_order` applies to all of them.
 * docs/decisions/0024-integration-kit.md says why a suffix after `_` and no
 * list of frameworks' formats.
 */

export interface ToolNames {
  /**
   * The configured tool `name` stands for: `name` itself when it is
   * configured, otherwise the longest configured name that follows a `_` in
   * it (`shop_refund_order` → `refund_order`); `undefined` when none is.
   */
  readonly configured: (name: string) => string | undefined;
  /**
   * Whether `outer` (a framework's name for a tool) and `inner` (the name an
   * MCP call inside it sends) are the same tool: they stand for the same
   * configured tool, or, when neither is configured, `outer` is `inner` with
   * a prefix ending in `_`.
   */
  readonly same: (outer: string, inner: string) => boolean;
}

/** Names resolved so far; bounded, since names come from frameworks and servers. */
const MAX_REMEMBERED = 4_096;

export function createToolNames(configuredNames: Iterable<string>): ToolNames {
  const names = new Set(configuredNames);
  const remembered = new Map<string, string | null>();

  const lookup = (name: string): string | undefined => {
    if (names.has(name)) return name;
    for (let i = name.indexOf('_'); i >= 0; i = name.indexOf('_', i + 1)) {
      const rest = name.slice(i + 1);
      if (rest !== '' && rest.charCodeAt(0) !== 0x5f && names.has(rest)) return rest;
    }
    return undefined;
  };

  const configured = (name: string): string | undefined => {
    if (names.size === 0) return undefined;
    const known = remembered.get(name);
    if (known !== undefined) return known ?? undefined;
    const found = lookup(name);
    if (remembered.size < MAX_REMEMBERED) remembered.set(name, found ?? null);
    return found;
  };

  return {
    configured,
    same(outer, inner) {
      if (outer === inner) return true;
      const a = configured(outer);
      const b = configured(inner);
      if (a !== undefined || b !== undefined) return a === b;
      const cut = outer.length - inner.length - 1;
      return cut > 0 && outer.endsWith(inner) && outer.charCodeAt(cut) === 0x5f;
    },
  };
}
