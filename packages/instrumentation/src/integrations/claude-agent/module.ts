/**
 * The Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, ESM only). Its
 * agents' tools are MCP tools: in-process servers (`createSdkMcpServer`),
 * whose client side is in the SDK's binary, and external servers the binary
 * starts or connects to itself. Neither passes through an MCP client of this
 * process. What does, for every tool call, is the SDK's hook machinery: so
 * the exports that start a session — `query`, `startup` (a warm query) and
 * `prewarm` (a spare process), whichever the loaded version has — pass the
 * SDK options with argcheck's `PreToolUse` hook added (`options.ts`).
 * docs/decisions/0029-claude-agent-sdk.md says why there.
 *
 * Under the ESM loader hook the exports are settable; loaded by `require`
 * (Node 20.19+, 22+) the module namespace cannot be redefined, so a plain
 * copy with the wrapped functions is returned in its place.
 *
 * The explicit entry point is `inst.claudeAgentOptions(options)`.
 */
import type { Host } from '../../kit/host.js';
import { patchableExports, patchedExports } from '../../kit/module-exports.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { hasProperties, isObject } from '../../kit/values.js';
import type { Patch } from '../../kit/wrapping.js';
import { claudeAgentOptions } from './options.js';

export const CLAUDE_AGENT_PACKAGE = '@anthropic-ai/claude-agent-sdk';

/** The exports whose one argument carries the session's `options`. */
const ENTRY_POINTS = ['query', 'startup', 'prewarm'] as const;

/** A wrapper of `fn({ options, ... })` that passes the options with argcheck's hook. */
function optionsPatch(host: Host): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const params = args[0];
      if (!on.active || (params !== undefined && !isObject(params))) {
        return original.apply(this, args);
      }
      try {
        const given: Record<PropertyKey, unknown> = params ?? {};
        const options = claudeAgentOptions(host, given.options);
        if (options !== given.options) args[0] = { ...given, options };
      } catch {
        // The session starts as the application asked.
      }
      return original.apply(this, args);
    };
}

/** The module `init()` lists for the Claude Agent SDK, unless `frameworks.enabled` is false. */
export function claudeAgentModules(host: Host): ModuleSpec[] {
  return [
    {
      integration: 'claude_agent',
      packageName: CLAUDE_AGENT_PACKAGE,
      range: { lowest: '0.3.142', below: '0.4.0' },
      patch(moduleExports) {
        if (!hasProperties(moduleExports)) return moduleExports;
        const target = patchableExports(moduleExports);
        for (const name of ENTRY_POINTS) host.wrapping.wrap(target, name, optionsPatch(host));
        return target;
      },
      unpatch(moduleExports) {
        if (!hasProperties(moduleExports)) return;
        const target = patchedExports(moduleExports);
        for (const name of ENTRY_POINTS) host.wrapping.unwrap(target, name);
      },
      explicit: 'query({ prompt, options: inst.claudeAgentOptions(options) })',
    },
  ];
}
