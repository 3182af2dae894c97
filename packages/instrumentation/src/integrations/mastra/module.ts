/**
 * Mastra (`@mastra/core` 1.x, CommonJS and ESM builds).
 *
 * `Agent.prototype.convertTools` assembles, for every run (`generate`,
 * `stream` and their legacy forms), the tools the agent's loop executes, keyed
 * by the names the model sees, with the agent's and the run's tool hooks
 * already applied. It is there, under that name, in every 1.x release
 * (docs/decisions/0019-framework-patch-points.md), while `hooks` only arrived
 * in later ones. Each run's tools are checked with the agent as the scope of
 * their derived sets; the check sits outside the hooks, so it sees what the
 * model emitted. MCP tools are named `<server>_<tool>` there; a configured
 * `<tool>` applies to them (`engine/tool-names.ts`).
 *
 * The class lives in a chunk whose file name is hashed; the hook is on the
 * `@mastra/core/agent` entry files of both builds, which export it. The
 * explicit entry points are `inst.wrapMastraTools(tools)` (`tools.ts`) and
 * `inst.mastraHooks(hooks?)` (`hooks.ts`).
 */
import type { Host } from '../../kit/host.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { checkRunTools } from '../../kit/run-tools.js';
import { hasProperties } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Patch } from '../../kit/wrapping.js';
import { MASTRA_TOOLS } from './tools.js';

export const MASTRA_PACKAGE = '@mastra/core';

function agentPrototype(moduleExports: unknown): Target | undefined {
  const agent = hasProperties(moduleExports) ? moduleExports.Agent : undefined;
  const proto: unknown = typeof agent === 'function' ? agent.prototype : undefined;
  return hasProperties(proto) && typeof proto.convertTools === 'function' ? proto : undefined;
}

function convertToolsPatch(host: Host): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !hasProperties(this) || !(pending instanceof Promise)) return pending;
      return pending.then((converted: unknown) => {
        const { tools, listed } = checkRunTools(host, MASTRA_TOOLS, converted, this);
        return listed === undefined ? tools : listed.then(() => tools);
      });
    };
}

/** The module `init()` lists for Mastra, unless `frameworks.enabled` is false. */
export function mastraModules(host: Host): ModuleSpec[] {
  return [
    {
      integration: 'mastra',
      packageName: MASTRA_PACKAGE,
      range: { lowest: '1.0.0', below: '2.0.0' },
      files: ['dist/agent/index.js', 'dist/agent/index.cjs'],
      patch(moduleExports) {
        const proto = agentPrototype(moduleExports);
        if (proto === undefined) {
          host.diag.debug('argcheck: @mastra/core/agent without Agent.prototype.convertTools');
        } else {
          host.wrapping.wrap(proto, 'convertTools', convertToolsPatch(host));
        }
        return moduleExports;
      },
      unpatch(moduleExports) {
        const proto = agentPrototype(moduleExports);
        if (proto !== undefined) host.wrapping.unwrap(proto, 'convertTools');
      },
      explicit: 'new Agent({ tools: inst.wrapMastraTools(tools) })',
    },
  ];
}
