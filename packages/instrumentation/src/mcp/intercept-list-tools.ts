import type { McpHost } from '../internal-types.js';
import type { ClientCatalogs } from './client-catalogs.js';
import type { Interceptor } from './wrap-method.js';

/**
 * How long a `listTools` result waits for a new catalog's sets to load. They
 * are the server's own enums, so this is normally a few microtasks; the bound
 * keeps the observer from ever holding up a tool listing.
 */
export const MAX_CATALOG_WAIT_MS = 1_000;

function bounded(ready: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_CATALOG_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([ready, timeout]).finally(() => clearTimeout(timer));
}

function report(host: McpHost, error: unknown): void {
  try {
    host.diag.warn('argcheck: could not derive value sets from the MCP tool catalog', error);
  } catch {
    // A broken logger must not lose the caller its tool list.
  }
}

/**
 * `listTools(params, ...rest)`: the result goes back to the caller unchanged,
 * once the catalog derived from it is in use, so a call made right after
 * `await client.listTools()` is checked against it. Both SDK lines re-list
 * through `listTools` on `notifications/tools/list_changed` when the client
 * was built with `listChanged.tools`, so that path is covered too.
 */
export function listToolsInterceptor(host: McpHost, catalogs: ClientCatalogs): Interceptor {
  return (client, args, forward) => {
    const pending = forward.apply(client, args);
    if (typeof client !== 'object' || client === null || !(pending instanceof Promise)) {
      return pending;
    }
    return pending.then(async (result: unknown) => {
      try {
        const ready = catalogs.observeToolList(client, args[0], result);
        if (ready !== undefined) await bounded(ready);
      } catch (error) {
        report(host, error);
      }
      return result;
    });
  };
}
