import type { McpHost } from '../internal-types.js';
import type { ClientCatalogs } from './client-catalogs.js';
import { toolCallInterceptor } from './intercept-call-tool.js';
import type { RejectedToolResult } from './intercept-call-tool.js';
import type { FirstArgumentInterceptor } from './wrap-method.js';

/** The last message of a `callToolStream` stream that ends in a result. */
interface ResultMessage {
  type: 'result';
  result: RejectedToolResult;
}

// An async generator, like the method it stands in for, though it awaits nothing.
// eslint-disable-next-line @typescript-eslint/require-await
async function* rejected(result: RejectedToolResult): AsyncGenerator<ResultMessage, void, void> {
  yield { type: 'result', result };
}

/** The client a `client.experimental.tasks` object belongs to (SDK 1.x keeps it as `_client`). */
function clientOf(tasks: unknown): unknown {
  return typeof tasks === 'object' && tasks !== null
    ? (tasks as { _client?: unknown })._client
    : undefined;
}

/**
 * `client.experimental.tasks.callToolStream(params, …)` (SDK 1.x, experimental):
 * the same check as `callTool`, on the client the tasks object belongs to, so
 * its catalog-derived sets apply. A rejected call yields one `result` message
 * with the repair message, as the stream of a tool error would, and never
 * reaches the server. Whatever argcheck itself throws, the call goes out
 * untouched.
 */
export function callToolStreamInterceptor(
  host: McpHost,
  catalogs: ClientCatalogs,
): FirstArgumentInterceptor {
  return toolCallInterceptor(host, catalogs, {
    name: 'callToolStream',
    clientOf,
    answer: rejected,
  });
}
