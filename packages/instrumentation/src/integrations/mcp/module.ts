/**
 * MCP clients: `@modelcontextprotocol/client` 2.x and `@modelcontextprotocol/sdk`
 * 1.x, patched on `Client.prototype` when loaded after registration
 * (`patches.ts` says what is wrapped); `@ai-sdk/mcp` 2.x, whose client class
 * is reached through `createMCPClient` (`ai-sdk-client.ts`); and
 * `inst.instrumentMcpClient(client)` for clients the hooks cannot reach.
 *
 * SDK 1.x is hooked on its two client files by name, which reaches ESM
 * imports and versions whose `main` resolves; 1.32.x names a `main` it does
 * not ship, and require-in-the-middle then skips every file hook in the
 * package. So each installed 1.x copy's client files are also hooked by
 * absolute path (`sdk-location.ts`).
 */
import type { Host } from '../../kit/host.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import type { Target } from '../../kit/values.js';
import { aiSdkMcpSpec } from './ai-sdk-client.js';
import {
  clientPrototype,
  patchCallTool,
  patchCallToolStream,
  patchClientPrototype,
  patchListTools,
  tasksOf,
  unpatchClientPrototype,
} from './patches.js';
import { findSdkInstalls, SDK_CLIENT_FILES, SDK_PACKAGE } from './sdk-location.js';

export const MCP_CLIENT_PACKAGE = '@modelcontextprotocol/client';
const EXPLICIT = 'inst.instrumentMcpClient(client)';

/** The modules `init()` lists for MCP, unless `mcp.enabled` is false. */
export function mcpModules(host: Host): ModuleSpec[] {
  const patch = (moduleExports: unknown): unknown => {
    const proto = clientPrototype(moduleExports);
    if (proto === undefined) {
      host.diag.debug('argcheck: MCP client module without Client.prototype.callTool; not patched');
    } else {
      patchClientPrototype(host, proto);
    }
    return moduleExports;
  };
  const unpatch = (moduleExports: unknown): void => {
    const proto = clientPrototype(moduleExports);
    if (proto !== undefined) unpatchClientPrototype(host, proto);
  };
  return [
    {
      integration: 'mcp',
      packageName: MCP_CLIENT_PACKAGE,
      range: { lowest: '2.0.0', below: '3.0.0' },
      patch,
      unpatch,
      explicit: EXPLICIT,
    },
    {
      integration: 'mcp',
      packageName: SDK_PACKAGE,
      // The range whose `Client.callTool(params, resultSchema?, options?)` is known.
      range: { lowest: '1.10.0', below: '2.0.0' },
      files: SDK_CLIENT_FILES,
      installs: findSdkInstalls().map((copy) => ({
        version: copy.version,
        files: copy.clientFiles,
      })),
      patch,
      unpatch,
      explicit: EXPLICIT,
    },
    aiSdkMcpSpec(host),
  ];
}

/**
 * The explicit entry point: wrap one client's own methods (and SDK 1.x's
 * `experimental.tasks.callToolStream`). A client patched both ways counts
 * each call once.
 */
export function instrumentMcpClient(host: Host, client: object): void {
  const target = client as Target;
  if (typeof target.callTool !== 'function') {
    host.diag.warn('argcheck: instrumentMcpClient was given an object without callTool; ignored');
    return;
  }
  host.seen('mcp');
  host.wrapping.wrapInstance(target, 'callTool', patchCallTool(host));
  host.wrapping.wrapInstance(target, 'listTools', patchListTools(host));
  const tasks = tasksOf(target);
  if (tasks !== undefined) {
    host.wrapping.wrapInstance(tasks, 'callToolStream', patchCallToolStream(host));
  }
}
