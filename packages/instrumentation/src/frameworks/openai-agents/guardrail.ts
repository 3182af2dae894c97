/**
 * OpenAI Agents SDK, the explicit entry point: a tool input guardrail, for
 * applications whose `@openai/agents` cannot be patched (ESM without the
 * loader hook) or that prefer to say where the check runs. Add it to a
 * tool's `inputGuardrails`.
 *
 * A rejection is the guardrail's `rejectContent(repairMessage)`: the tool
 * does not run and the model reads the message as the tool's output. The
 * call is checked and counted here; when `invokeFunctionTool` is patched as
 * well, the wrapper sends the arguments decided here and does not count the
 * call again. A guardrail can allow or reject, not hand the tool other
 * arguments: without the patch, a `normalise` rewrite is made by replacing
 * the call item's `arguments` with the rewritten JSON (docs/frameworks.md).
 */
import type { AgentsGuardrailOutput, AgentsToolInputGuardrail } from '../../types.js';
import { frameworkContext, isObject, listToolOnce } from '../framework-tools.js';
import type { FrameworkHost } from '../framework-tools.js';
import { AGENTS_ORIGIN, invokePatched, markDecided } from './invoke-patch.js';

export const GUARDRAIL_NAME = 'argcheck';

const ALLOW: AgentsGuardrailOutput = Object.freeze({ behavior: Object.freeze({ type: 'allow' }) });

/** The agent's own tool object of that name: the scope its schema's derived sets belong to. */
function toolOf(agent: unknown, name: string): Record<string, unknown> | undefined {
  const tools = isObject(agent) ? agent.tools : undefined;
  if (!Array.isArray(tools)) return undefined;
  const found: unknown = tools.find((t) => isObject(t) && t.name === name);
  return isObject(found) ? found : undefined;
}

async function decide(host: FrameworkHost, data: unknown): Promise<AgentsGuardrailOutput> {
  const engine = host.engine();
  if (engine === undefined || !isObject(data)) return ALLOW;
  const toolCall = data.toolCall;
  if (!isObject(toolCall) || typeof toolCall.name !== 'string') return ALLOW;
  const name = toolCall.name;
  const tool = toolOf(data.agent, name);
  if (tool !== undefined) {
    await listToolOnce(host, engine, tool, name, AGENTS_ORIGIN, () => tool.parameters);
  }
  const outcome = engine.check(name, toolCall.arguments, frameworkContext(toolCall.callId), tool);
  if (outcome.action === 'reject' && typeof outcome.repairMessage === 'string') {
    return { behavior: { type: 'rejectContent', message: outcome.repairMessage } };
  }
  if (invokePatched()) markDecided(toolCall, outcome);
  else if (outcome.action === 'call_rewritten' && typeof outcome.args === 'string') {
    toolCall.arguments = outcome.args;
  }
  return ALLOW;
}

export function agentsToolGuardrail(host: FrameworkHost): AgentsToolInputGuardrail {
  return {
    type: 'tool_input',
    name: GUARDRAIL_NAME,
    async run(data) {
      try {
        return await decide(host, data);
      } catch (error) {
        host.diag.error('argcheck: the Agents guardrail check failed; the call goes ahead', error);
        return ALLOW;
      }
    },
  };
}
