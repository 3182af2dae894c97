/**
 * argcheck's `PreToolUse` hook for the Claude Agent SDK. The SDK's binary
 * asks this process's hooks about every tool call before it runs, in-process
 * and external MCP servers alike, as `hook(input, toolUseID, { signal })`;
 * the matcher limits it to MCP tools (`mcp__<server>__<tool>`), the ones the
 * application defines or connects.
 *
 * What it answers, by the engine's decision:
 * - forward the model's arguments: `{}`, nothing said;
 * - forward rewritten arguments (`normalise`): `updatedInput`, with no
 *   permission decision, so the application's permission rules and
 *   `canUseTool` still decide (and see the rewritten input);
 * - answer the model (`reject`): `permissionDecision: 'deny'` with the repair
 *   message as the reason. A deny wins over any other hook's answer; the
 *   model reads the reason as the tool's error result.
 *
 * Whatever argcheck throws, the hook answers `{}` and the call goes on.
 */
import type { Host } from '../../kit/host.js';
import { isObject } from '../../kit/values.js';
import type { RunAttribution } from '../../engine/run-scope.js';
import type { ClaudeAgentHookOutput } from '../../types.js';
import { markDecided } from './servers.js';
import type { SdkServer } from './servers.js';

/** Only MCP tools: the binary does not call the hook for the others. */
export const MCP_TOOLS_MATCHER = 'mcp__.*';

/** What one query's hook knows: its in-process servers and what produced its calls. */
export interface Session {
  readonly servers: ReadonlyMap<string, SdkServer>;
  /** The query's own attribution (its model, provider and main-thread agent). */
  readonly attribution: RunAttribution;
  /** A subagent's calls, by the agent's name, where the options define it. */
  readonly agents: ReadonlyMap<string, RunAttribution>;
}

/** The in-process server a call's tool belongs to: the input's `mcp_server`, else the longest prefix its name starts with. */
function serverOf(session: Session, input: Record<PropertyKey, unknown>, name: string) {
  const provenance = input.mcp_server;
  if (isObject(provenance)) {
    if (provenance.source !== 'sdk' || typeof provenance.name !== 'string') return undefined;
    const server = session.servers.get(provenance.name);
    return server !== undefined && name.startsWith(server.prefix) ? server : undefined;
  }
  let found: SdkServer | undefined;
  for (const server of session.servers.values()) {
    if (!name.startsWith(server.prefix)) continue;
    if (found === undefined || server.prefix.length > found.prefix.length) found = server;
  }
  return found;
}

function attributionOf(session: Session, input: Record<PropertyKey, unknown>): RunAttribution {
  const agent = input.agent_type;
  return (typeof agent === 'string' ? session.agents.get(agent) : undefined) ?? session.attribution;
}

/** The engine's decision on one call, in the SDK's words. */
function answer(
  host: Host,
  session: Session,
  input: Record<PropertyKey, unknown>,
  name: string,
  server: SdkServer | undefined,
  toolUseId: unknown,
): ClaudeAgentHookOutput {
  const engine = host.engine();
  if (engine === undefined) return {};
  const id = typeof input.tool_use_id === 'string' ? input.tool_use_id : toolUseId;
  const conversation = input.session_id;
  const args = input.tool_input;
  const decision = engine.decide({
    tool: name,
    args,
    context: () => ({
      ...(typeof id === 'string' ? { toolCallId: id } : {}),
      ...(typeof conversation === 'string' && conversation !== ''
        ? { conversationId: conversation }
        : {}),
    }),
    scope: server?.scope,
    integration: 'claude_agent',
    attribution: attributionOf(session, input),
  });
  if (decision.answer !== undefined) {
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: decision.answer,
      },
    };
  }
  if (server !== undefined && decision.outcome !== undefined && typeof id === 'string') {
    markDecided(host, id, name);
  }
  if (decision.args !== args && isObject(decision.args) && !Array.isArray(decision.args)) {
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: decision.args } };
  }
  return {};
}

/** The answer, or its promise when a server's first call waits for its derived sets. */
function decide(
  host: Host,
  session: Session,
  input: unknown,
  toolUseId: unknown,
): ClaudeAgentHookOutput | Promise<ClaudeAgentHookOutput> {
  if (host.engine() === undefined || !isObject(input)) return {};
  const name = input.tool_name;
  if (typeof name !== 'string' || !name.startsWith('mcp__')) return {};
  const server = serverOf(session, input, name);
  const listed = server?.listed();
  if (listed !== undefined) {
    return listed.then(() => answer(host, session, input, name, server, toolUseId));
  }
  return answer(host, session, input, name, server, toolUseId);
}

/** The hook of one query's options. Never throws, never rejects. */
export function preToolUseHook(host: Host, session: Session) {
  const failed = (error: unknown): ClaudeAgentHookOutput => {
    try {
      host.diag.debug(
        'argcheck: Claude Agent SDK PreToolUse check failed; the call goes on',
        error,
      );
    } catch {
      // A broken logger must not take the call down with it.
    }
    return {};
  };
  // Not an async function: a call that needs no wait is decided at once, in one resolved promise.
  return function argcheckPreToolUse(
    input: unknown,
    toolUseId: unknown,
  ): Promise<ClaudeAgentHookOutput> {
    try {
      const answered = decide(host, session, input, toolUseId);
      return answered instanceof Promise ? answered.catch(failed) : Promise.resolve(answered);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
  };
}
