import type { CheckOutcome } from '@argcheck/core';
import type { McpHost } from '../internal-types.js';
import { callContext } from './call-context.js';
import type { ClientCatalogs } from './client-catalogs.js';
import { Answer } from './wrap-method.js';
import type { FirstArgumentInterceptor } from './wrap-method.js';

/** What a rejected call resolves to: a tool error the model reads, with the legal values. */
export interface RejectedToolResult {
  isError: true;
  content: [{ type: 'text'; text: string }];
}

function outcomeOf(
  catalogs: ClientCatalogs,
  client: unknown,
  call: Readonly<Record<string, unknown>>,
  name: string,
): CheckOutcome {
  const engine = catalogs.engineFor(client);
  // Our engines read the call's context (`_meta`, baggage) only for a sampled
  // log record; an engine without `checkCall` gets it up front.
  if (engine.checkCall !== undefined) {
    return engine.checkCall(name, call.arguments, () => callContext(call));
  }
  return engine.check(name, call.arguments, callContext(call));
}

/** A call `reject` mode keeps from the server, and the tool result to give instead. */
class Rejection {
  constructor(readonly result: RejectedToolResult) {}
}

/**
 * The params to send for one `tools/call` of `client`: the caller's own, a
 * rewritten copy, or a `Rejection`. Checks and counts the call.
 */
function decide(catalogs: ClientCatalogs, client: unknown, params: unknown): unknown {
  if (typeof params !== 'object' || params === null) return params;
  const call = params as Readonly<Record<string, unknown>>;
  const name = call.name;
  if (typeof name !== 'string') return params;
  const outcome = outcomeOf(catalogs, client, call, name);
  switch (outcome.action) {
    case 'call_rewritten':
      // A copy: the caller's params object is theirs and may be reused.
      return { ...call, arguments: outcome.args };
    case 'reject': {
      // Reject without a message would leave the model nothing to repair with; send the call.
      if (typeof outcome.repairMessage !== 'string') return params;
      return new Rejection({
        isError: true,
        content: [{ type: 'text', text: outcome.repairMessage }],
      });
    }
    default:
      return params;
  }
}

/** How one client method that sends `tools/call` is intercepted. */
export interface ToolCallMethod {
  /** The method's name, for the diagnostics message. */
  readonly name: string;
  /** The client a call on `self` belongs to (whose catalog-derived sets apply). */
  clientOf(self: unknown): unknown;
  /** What the method returns in place of a call `reject` mode keeps from the server. */
  answer(result: RejectedToolResult): unknown;
}

/**
 * Check `params.arguments` of a call of `method`, then forward the same params
 * (observe, or nothing to change), a copy with rewritten arguments, or — for
 * a rejection — `method.answer(…)` without contacting the server. Whatever
 * argcheck itself throws, the original call goes out untouched.
 */
export function toolCallInterceptor(
  host: McpHost,
  catalogs: ClientCatalogs,
  method: ToolCallMethod,
): FirstArgumentInterceptor {
  return {
    first(self, params) {
      try {
        const sent = decide(catalogs, method.clientOf(self), params);
        return sent instanceof Rejection ? new Answer(method.answer(sent.result)) : sent;
      } catch (error) {
        try {
          host.diag.error(
            `argcheck: MCP ${method.name} check failed; the call goes out unchecked`,
            error,
          );
        } catch {
          // A broken logger must not take the call down with it.
        }
        return params;
      }
    },
  };
}

/** `callTool(params, ...rest)`: a rejection resolves to the tool error. */
export function callToolInterceptor(
  host: McpHost,
  catalogs: ClientCatalogs,
): FirstArgumentInterceptor {
  return toolCallInterceptor(host, catalogs, {
    name: 'callTool',
    clientOf: (client) => client,
    answer: (result) => Promise.resolve(result),
  });
}
