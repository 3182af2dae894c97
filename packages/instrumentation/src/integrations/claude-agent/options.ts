/**
 * A Claude Agent SDK query's options with argcheck's `PreToolUse` hook: what
 * the patched `query()`, `startup()` and `prewarm()` pass the SDK, and what
 * the explicit entry point `inst.claudeAgentOptions(options)` returns.
 *
 * The options given are not changed: the copy's `hooks.PreToolUse` is
 * argcheck's matcher followed by the application's own matchers, every other
 * hook event as it was. The SDK runs the matchers of one event concurrently
 * and each sees the model's input, so the order decides nothing: a deny from
 * any of them wins, and when several return `updatedInput` the one that
 * finishes last is kept (docs/frameworks.md). Options that already carry this
 * instance's matcher come back as they are, so a query reached both ways
 * (the explicit entry point and the patch) is checked once.
 *
 * What produced the calls (decision 0027): the options' `model` (else the
 * `ANTHROPIC_MODEL` of the environment the binary gets), the provider the
 * binary is configured for (`aws.bedrock`, `gcp.vertex_ai`, else
 * `anthropic`), and the main-thread `agent`; a subagent's call is attributed
 * to that agent (and its model, when its definition names one).
 */
import type { RunAttribution } from '../../engine/run-scope.js';
import type { Host } from '../../kit/host.js';
import { isObject, isRecord } from '../../kit/values.js';
import type { ClaudeAgentHookMatcher } from '../../types.js';
import { MCP_TOOLS_MATCHER, preToolUseHook } from './hook.js';
import type { Session } from './hook.js';
import { sdkServers } from './servers.js';

/** The matchers each instance made: options carrying one are not given another. */
const MATCHERS = Symbol('argcheck.claude-agent.matchers');

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

const on = (value: unknown): boolean =>
  typeof value === 'string' && /^(1|true|yes)$/i.test(value.trim());

/** The environment the binary gets: `options.env` replaces the process's. */
function environmentOf(options: Record<PropertyKey, unknown>): Record<string, unknown> {
  return isRecord(options.env) ? options.env : process.env;
}

function providerOf(env: Record<string, unknown>): string {
  if (on(env.CLAUDE_CODE_USE_BEDROCK)) return 'aws.bedrock';
  if (on(env.CLAUDE_CODE_USE_VERTEX)) return 'gcp.vertex_ai';
  return 'anthropic';
}

function sessionOf(host: Host, options: Record<PropertyKey, unknown>): Session {
  const env = environmentOf(options);
  const attribution: RunAttribution = {
    model: text(options.model) ?? text(env.ANTHROPIC_MODEL),
    provider: providerOf(env),
    agent: text(options.agent),
  };
  const agents = new Map<string, RunAttribution>();
  if (isRecord(options.agents)) {
    for (const [name, definition] of Object.entries(options.agents)) {
      const model = isObject(definition) ? text(definition.model) : undefined;
      agents.set(name, {
        ...attribution,
        agent: name,
        model: model === undefined || model === 'inherit' ? attribution.model : model,
      });
    }
  }
  return { servers: sdkServers(host, options.mcpServers), attribution, agents };
}

/**
 * `options` with argcheck's `PreToolUse` matcher first; `options` itself
 * when it already has this instance's, or when it cannot be read. Never throws.
 */
export function claudeAgentOptions<O>(host: Host, options: O): O {
  try {
    host.seen('claude_agent');
    if (options !== undefined && !isObject(options)) return options;
    const given: Record<PropertyKey, unknown> = options ?? {};
    const hooks = isObject(given.hooks) ? given.hooks : undefined;
    const theirs: unknown[] = Array.isArray(hooks?.PreToolUse) ? hooks.PreToolUse : [];
    const made = host.local(MATCHERS, () => new WeakSet<object>());
    if (theirs.some((m) => isObject(m) && made.has(m))) return options;
    const matcher: ClaudeAgentHookMatcher = {
      matcher: MCP_TOOLS_MATCHER,
      hooks: [preToolUseHook(host, sessionOf(host, given))],
    };
    made.add(matcher);
    return { ...given, hooks: { ...hooks, PreToolUse: [matcher, ...theirs] } } as O;
  } catch (error) {
    host.diag.debug('argcheck: Claude Agent SDK options left without the check', error);
    return options;
  }
}
