/**
 * An agent's tools as its framework builds them for one run (Mastra's
 * `convertTools`): a new map of new tool objects every run, made for that
 * run and seen by nothing else, so each tool's own properties (its
 * `execute`) are replaced in place rather than the map and every tool
 * copied. A tool whose properties cannot be set (frozen, an accessor) gets a
 * checked copy in a copy of the map instead.
 *
 * The run's tools are listed with the agent as their scope. Their names are
 * compared with the agent's last listing every run, so a tool added or
 * renamed is listed at once; a tool's description and schema are compared
 * when it is first called in a run, and the run's tools are listed again when
 * they differ (a catalogue change, a rewritten description). A run of tools
 * already listed costs one pass over the names and a wrapper per tool.
 */
import { sameStructure } from '../engine/same-arguments.js';
import type { Host } from './host.js';
import { copyWith, invokeTool, listScope } from './tools-map.js';
import type { CatalogEntry, Execute, ToolLike, ToolsKind } from './tools-map.js';
import { hasProperties, isObject } from './values.js';

/** A framework's run tools: how they are read and listed, and what answers a rejected call. */
export interface RunToolsKind extends ToolsKind {
  readonly rejection: (repairMessage: string) => unknown;
}

/**
 * One run's tools: what is listed if any of them differs from the agent's
 * last listing, and what each checked `execute` needs (by position), so
 * that checking a tool costs the run one closure.
 */
interface RunTools {
  readonly host: Host;
  readonly kind: RunToolsKind;
  readonly agent: object;
  readonly names: string[];
  readonly tools: ToolLike[];
  /** Each tool's `execute` as the framework made it for this run. */
  readonly executes: Execute[];
  /** The tool was found to be as the agent listed it last, or listed with this run. */
  readonly verified: boolean[];
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** List the run's tools as the agent's catalog, and take them all as verified. */
function listRun(run: RunTools): Promise<void> | undefined {
  const { host, kind, agent, names, tools } = run;
  const engine = host.engine();
  if (engine === undefined) return undefined;
  const state = host.tools;
  const catalog = names.map((name, i): CatalogEntry => [
    name,
    () => kind.inputSchema(tools[i] as ToolLike),
    (tools[i] as ToolLike).description,
  ]);
  const waiting = listScope(host, engine, agent, kind, catalog, (listed) => {
    state.last.set(agent, listed);
  });
  run.verified.fill(true);
  return waiting;
}

/**
 * Before a run's tool is first called: whether it is as the agent listed it
 * last (then the agent's listing, or its wait); otherwise the run's tools
 * are listed again. Never throws.
 */
function verified(run: RunTools, i: number): Promise<void> | undefined {
  const { host, agent, kind } = run;
  const state = host.tools;
  if (run.verified[i] === true) return state.listed.get(agent);
  const tool = run.tools[i] as ToolLike;
  const name = run.names[i] as string;
  const last = state.last.get(agent);
  const at = last === undefined ? -1 : last.names.indexOf(name);
  if (last !== undefined && at >= 0 && last.derive === host.deriveFrameworkSets()) {
    try {
      const description = typeof tool.description === 'string' ? tool.description : undefined;
      if (
        last.descriptions[at] === description &&
        (!last.derive || sameStructure(last.schemas[at], kind.inputSchema(tool)))
      ) {
        run.verified[i] = true;
        return state.listed.get(agent);
      }
    } catch {
      // An unreadable schema: listed again, where it is read once more and reported.
    }
  }
  return listRun(run);
}

/** One call of the run's tool at `at`: checked once the agent's listing is in use. */
function callRunTool(
  run: RunTools,
  at: number,
  self: unknown,
  input: unknown,
  options: unknown,
): unknown {
  const { host, kind, agent } = run;
  const execute = run.executes[at] as Execute;
  const engine = host.engine();
  if (engine === undefined) return execute.call(self, input, options);
  const name = run.names[at] as string;
  const listed = verified(run, at);
  if (listed === undefined) {
    return invokeTool(engine, kind, name, agent, execute, self, input, options, kind.rejection);
  }
  return listed.then(() =>
    invokeTool(engine, kind, name, agent, execute, self, input, options, kind.rejection),
  );
}

/** The checked `execute` of the run's tool at `at`. */
function checkedExecute(run: RunTools, at: number): Execute {
  return function (this: unknown, input, options) {
    return callRunTool(run, at, this, input, options);
  };
}

/** Set `execute` on the tool itself; false when it does not take (frozen, an accessor). */
function setInPlace(tool: ToolLike, execute: Execute): boolean {
  try {
    tool.execute = execute;
    return tool.execute === execute;
  } catch {
    // Frozen, or a setter that throws.
    return false;
  }
}

/**
 * Check every executable tool of one run of `agent`: in place, or where that
 * cannot be done, by a checked copy in a copy of the map. `listed` settles
 * once the calls see the agent's listing, when the names changed. Never
 * throws: anything unexpected leaves the map as it came.
 */
export function checkRunTools<T>(
  host: Host,
  kind: RunToolsKind,
  tools: T,
  agent: object,
): { tools: T; listed: Promise<void> | undefined } {
  try {
    if (!hasProperties(tools)) return { tools, listed: undefined };
    const state = host.tools;
    const map = tools as Record<string, unknown>;
    const names: string[] = [];
    const runTools: ToolLike[] = [];
    const executes: Execute[] = [];
    const run: RunTools = { host, kind, agent, names, tools: runTools, executes, verified: [] };
    let copies: Record<string, unknown> | undefined;
    for (const name of Object.keys(map)) {
      const tool = map[name];
      if (!isObject(tool)) continue;
      const execute = tool.execute;
      if (typeof execute !== 'function') continue;
      const at = names.length;
      names.push(name);
      runTools.push(tool);
      executes.push(execute as Execute);
      run.verified.push(false);
      if (state.made.has(tool)) continue;
      const checked = checkedExecute(run, at);
      if (setInPlace(tool, checked)) {
        state.made.add(tool);
        continue;
      }
      const copy = copyWith(tool, { execute: checked });
      state.made.add(copy);
      copies ??= Object.assign(
        Object.create(Object.getPrototypeOf(map) as object | null) as Record<string, unknown>,
        map,
      );
      copies[name] = copy;
    }
    if (names.length === 0) return { tools, listed: undefined };
    host.seen(kind.integration);
    const last = state.last.get(agent);
    const listed =
      last === undefined ||
      last.derive !== host.deriveFrameworkSets() ||
      !sameNames(last.names, names)
        ? listRun(run)
        : state.listed.get(agent);
    return { tools: (copies ?? tools) as T, listed };
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools left unchecked`, error);
    return { tools, listed: undefined };
  }
}
