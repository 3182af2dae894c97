/**
 * OpenAI Agents SDK, the explicit entry point: a tool input guardrail, for
 * applications whose `@openai/agents` cannot be patched (ESM without the
 * loader hook) or that prefer to say where the check runs. Add it to a
 * tool's `inputGuardrails`.
 *
 * A rejection is the guardrail's `rejectContent(repairMessage)`: the tool
 * does not run and the model reads the message as the tool's output. The
 * call is checked and counted here. The tool then runs with the arguments
 * decided here, marked as checked (an MCP call it makes with them is not
 * counted again): through this instance's wrapper of `invokeFunctionTool`
 * when it is on, otherwise through a wrapper of the tool's own `invoke`,
 * put on the first time the guardrail sees the tool. Without the patch a
 * `normalise` rewrite is also written into the call item's `arguments`
 * (docs/frameworks.md).
 */
import { frameworkContext } from '../../kit/call-context.js';
import type { Engine } from '../../engine/engine.js';
import type { Host } from '../../kit/host.js';
import { isObject } from '../../kit/values.js';
import type { AgentsGuardrailOutput, AgentsToolInputGuardrail } from '../../types.js';
import { invokePatched, listAgentsTool, markDecided, wrapToolInvoke } from './invoke-patch.js';

export const GUARDRAIL_NAME = 'argcheck';

const ALLOW: AgentsGuardrailOutput = Object.freeze({ behavior: Object.freeze({ type: 'allow' }) });

/** The agent's own tool object of that name: the scope its schema's derived sets belong to. */
function toolOf(agent: unknown, name: string): Record<PropertyKey, unknown> | undefined {
  const tools = isObject(agent) ? agent.tools : undefined;
  if (!Array.isArray(tools)) return undefined;
  const found: unknown = tools.find((t) => isObject(t) && t.name === name);
  return isObject(found) ? found : undefined;
}

/**
 * The guardrail's answer to one call: given at once when the tool's listing
 * is in use, as every call after the first finds it; otherwise when it is.
 * Only a listing still on its way costs the call a turn of the microtask queue.
 */
function decide(host: Host, data: unknown): AgentsGuardrailOutput | Promise<AgentsGuardrailOutput> {
  const engine = host.engine();
  if (engine === undefined || !isObject(data)) return ALLOW;
  const toolCall = data.toolCall;
  if (!isObject(toolCall) || typeof toolCall.name !== 'string') return ALLOW;
  const name = toolCall.name;
  const tool = toolOf(data.agent, name);
  const listing = tool === undefined ? undefined : listAgentsTool(host, engine, tool, name);
  if (listing === undefined) return decideListed(host, engine, toolCall, name, tool);
  return listing.then(() => decideListed(host, engine, toolCall, name, tool));
}

function decideListed(
  host: Host,
  engine: Engine,
  toolCall: Record<PropertyKey, unknown>,
  name: string,
  tool: Record<PropertyKey, unknown> | undefined,
): AgentsGuardrailOutput {
  const decision = engine.decide({
    tool: name,
    args: toolCall.arguments,
    context: frameworkContext(toolCall.callId),
    scope: tool,
    integration: 'openai_agents',
  });
  if (decision.answer !== undefined) {
    return { behavior: { type: 'rejectContent', message: decision.answer } };
  }
  const patched = invokePatched(host);
  if (patched || (tool !== undefined && wrapToolInvoke(host, tool, name))) {
    markDecided(host, toolCall, decision.args);
  }
  // Without the patch, a rewrite is also written into the call item, in case
  // the runner hands the tool a copy of it (redacted arguments).
  if (!patched && decision.args !== toolCall.arguments && typeof decision.args === 'string') {
    toolCall.arguments = decision.args;
  }
  return ALLOW;
}

export function agentsToolGuardrail(host: Host): AgentsToolInputGuardrail {
  host.seen('openai_agents');
  const failed = (error: unknown): AgentsGuardrailOutput => {
    try {
      host.diag.error('argcheck: the Agents guardrail check failed; the call goes ahead', error);
    } catch {
      // A broken logger must not take the call down with it.
    }
    return ALLOW;
  };
  return {
    type: 'tool_input',
    name: GUARDRAIL_NAME,
    // Not an async function: a call decided at once resolves without the
    // promises and microtask turns two nested awaits would cost it.
    run(data) {
      try {
        const output = decide(host, data);
        return output instanceof Promise ? output.catch(failed) : Promise.resolve(output);
      } catch (error) {
        return Promise.resolve(failed(error));
      }
    },
  };
}
