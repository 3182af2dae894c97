import type { McpHost } from '../internal-types.js';
import { callContext } from './call-context.js';
import type { ClientCatalogs } from './client-catalogs.js';
import type { Interceptor } from './wrap-method.js';

/** What a rejected call resolves to: a tool error the model reads, with the legal values. */
export interface RejectedToolResult {
  isError: true;
  content: [{ type: 'text'; text: string }];
}

type Decision =
  | { kind: 'forward' }
  | { kind: 'rewrite'; params: Record<string, unknown> }
  | { kind: 'reject'; result: RejectedToolResult };

const FORWARD: Decision = { kind: 'forward' };

function decide(catalogs: ClientCatalogs, client: unknown, params: unknown): Decision {
  if (typeof params !== 'object' || params === null) return FORWARD;
  const call = params as Record<string, unknown>;
  if (typeof call.name !== 'string') return FORWARD;
  const ctx = callContext(call);
  const outcome = catalogs.engineFor(client).check(call.name, call.arguments, ctx);
  switch (outcome.action) {
    case 'call_rewritten':
      // A copy: the caller's params object is theirs and may be reused.
      return { kind: 'rewrite', params: { ...call, arguments: outcome.args } };
    case 'reject':
      // Reject without a message would leave the model nothing to repair with; send the call.
      if (typeof outcome.repairMessage !== 'string') return FORWARD;
      return {
        kind: 'reject',
        result: { isError: true, content: [{ type: 'text', text: outcome.repairMessage }] },
      };
    default:
      return FORWARD;
  }
}

/**
 * `callTool(params, ...rest)`: check `params.arguments`, then forward the same
 * params (observe, or nothing to change), a copy with rewritten arguments, or
 * — for a rejection — resolve to a tool error without contacting the server.
 * Whatever argcheck itself throws, the original call goes out untouched.
 */
export function callToolInterceptor(host: McpHost, catalogs: ClientCatalogs): Interceptor {
  return (client, args, forward) => {
    let decision = FORWARD;
    try {
      decision = decide(catalogs, client, args[0]);
    } catch (error) {
      try {
        host.diag.error('argcheck: MCP callTool check failed; the call goes out unchecked', error);
      } catch {
        // A broken logger must not take the call down with it.
      }
    }
    if (decision.kind === 'reject') return Promise.resolve(decision.result);
    if (decision.kind === 'rewrite')
      return forward.apply(client, [decision.params, ...args.slice(1)]);
    return forward.apply(client, args);
  };
}
