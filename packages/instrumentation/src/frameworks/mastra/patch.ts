/**
 * Auto-patching of Mastra (`@mastra/core` 1.x, CommonJS and ESM builds).
 *
 * `Agent.prototype.convertTools` assembles, for every run (`generate`,
 * `stream` and their legacy forms), the tools the agent's loop executes, keyed
 * by the names the model sees, with the agent's and the run's tool hooks
 * already applied. It is there, under that name, in every 1.x release
 * (docs/decisions/0019-mastra-patch-point.md), while `hooks` only arrived in
 * later ones. Each run's tools are checked with the agent as the scope of
 * their derived sets; the check sits outside the hooks, so it sees what the
 * model emitted.
 *
 * The class lives in a chunk whose file name is hashed; the hook is on the
 * `@mastra/core/agent` entry files of both builds, which export it.
 */
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { Patch } from '../../wrapping.js';
import { inRange, reportUnsupported } from '../module-support.js';
import type { PatchHost, SupportedRange } from '../module-support.js';
import { checkTools } from '../tools-map.js';
import { MASTRA_TOOLS } from './tools.js';

export const MASTRA_PACKAGE = '@mastra/core';
export const MASTRA_RANGE: SupportedRange = { min: [1, 0, 0], belowMajor: 2 };
const AGENT_FILES = ['dist/agent/index.js', 'dist/agent/index.cjs'];

type Target = Record<string, unknown>;

function isObject(value: unknown): value is Target {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

function agentPrototype(moduleExports: unknown): Target | undefined {
  const agent = isObject(moduleExports) ? moduleExports.Agent : undefined;
  const proto: unknown = typeof agent === 'function' ? agent.prototype : undefined;
  return isObject(proto) && typeof proto.convertTools === 'function' ? proto : undefined;
}

function convertToolsPatch(host: PatchHost): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !isObject(this) || !(pending instanceof Promise)) return pending;
      return pending.then((converted: unknown) => {
        const { tools, listed } = checkTools(host, host.tools, MASTRA_TOOLS, converted, this);
        return listed === undefined ? tools : listed.then(() => tools);
      });
    };
}

/** The module definition `init()` lists for Mastra. */
export function mastraModules(host: PatchHost): InstrumentationModuleDefinition[] {
  const patch = (moduleExports: unknown, version?: string): unknown => {
    if (!inRange(version, MASTRA_RANGE)) {
      reportUnsupported(host.diag, MASTRA_PACKAGE, version, MASTRA_RANGE);
      return moduleExports;
    }
    const proto = agentPrototype(moduleExports);
    if (proto === undefined) {
      host.diag.debug('argcheck: @mastra/core/agent without Agent.prototype.convertTools');
    } else {
      host.wrap(proto, 'convertTools', convertToolsPatch(host));
    }
    return moduleExports;
  };
  const unpatch = (moduleExports: unknown): unknown => {
    const proto = agentPrototype(moduleExports);
    if (proto !== undefined) host.unwrap(proto, 'convertTools');
    return moduleExports;
  };
  return [
    new InstrumentationNodeModuleDefinition(
      MASTRA_PACKAGE,
      ['*'],
      undefined,
      undefined,
      AGENT_FILES.map(
        (file) =>
          new InstrumentationNodeModuleFile(`${MASTRA_PACKAGE}/${file}`, ['*'], patch, unpatch),
      ),
    ),
  ];
}
