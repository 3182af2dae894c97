/**
 * `@ai-sdk/mcp`, the AI SDK's MCP client: its `DefaultMCPClient` is not
 * exported. `createMCPClient` resolves to one, and its prototype's
 * `callTool` and `listTools` then get the MCP client wrappers (`patches.ts`), once.
 */
import type { Host } from '../../kit/host.js';
import { patchableExports, patchedExports } from '../../kit/module-exports.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { hasProperties } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Method, Patch } from '../../kit/wrapping.js';
import { patchCallTool, patchListTools } from './patches.js';

const CREATE_MCP_CLIENT = ['createMCPClient', 'experimental_createMCPClient'] as const;

/** `@ai-sdk/mcp` 2.x. */
export function aiSdkMcpSpec(host: Host): ModuleSpec {
  /** Client prototypes seen; wrapped again when the instrumentation is enabled again. */
  const patched = new Set<Target>();
  const wrapClient = (proto: Target) => {
    host.wrapping.wrap(proto, 'callTool', patchCallTool(host));
    host.wrapping.wrap(proto, 'listTools', patchListTools(host));
  };
  const patchClient = (client: unknown) => {
    const proto: unknown = hasProperties(client) ? Object.getPrototypeOf(client) : undefined;
    if (!hasProperties(proto) || patched.has(proto) || typeof proto.callTool !== 'function') return;
    patched.add(proto);
    wrapClient(proto);
  };
  const createPatch: Patch = (original: Method, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !(pending instanceof Promise)) return pending;
      return pending.then((client: unknown) => {
        try {
          patchClient(client);
        } catch (error) {
          host.diag.debug('argcheck: @ai-sdk/mcp client not patched', error);
        }
        return client;
      });
    };
  return {
    integration: 'mcp',
    packageName: '@ai-sdk/mcp',
    range: { lowest: '2.0.0', below: '3.0.0' },
    patch(moduleExports) {
      if (!hasProperties(moduleExports)) return moduleExports;
      const target = patchableExports(moduleExports);
      for (const name of CREATE_MCP_CLIENT) host.wrapping.wrap(target, name, createPatch);
      for (const proto of patched) wrapClient(proto);
      return target;
    },
    unpatch(moduleExports) {
      if (!hasProperties(moduleExports)) return;
      const target = patchedExports(moduleExports);
      for (const name of CREATE_MCP_CLIENT) host.wrapping.unwrap(target, name);
      for (const proto of patched) {
        host.wrapping.unwrap(proto, 'callTool');
        host.wrapping.unwrap(proto, 'listTools');
      }
    },
    explicit: 'inst.instrumentMcpClient(client)',
  };
}
