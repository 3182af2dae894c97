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
import { copyWith, listScope } from './tools-map.js';
import type { CatalogEntry, CheckedTool, ToolLike, ToolsKind } from './tools-map.js';
import { hasProperties, isObject } from './values.js';

/** One run's tools: what is listed if any of them differs from the agent's last listing. */
interface RunTools {
  readonly kind: ToolsKind;
  readonly agent: object;
  readonly names: readonly string[];
  readonly tools: readonly ToolLike[];
  /** By position: the tool was found to be as the agent listed it last, or listed with this run. */
  readonly verified: boolean[];
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** List the run's tools as the agent's catalog, and take them all as verified. */
function listRun(host: Host, run: RunTools): Promise<void> | undefined {
  const engine = host.engine();
  if (engine === undefined) return undefined;
  const { kind, agent, names, tools } = run;
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
function verified(host: Host, run: RunTools, i: number): Promise<void> | undefined {
  const state = host.tools;
  const { agent, kind } = run;
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
  return listRun(host, run);
}

/** Set the checked properties on the tool itself; false when one does not take. */
function setInPlace(tool: ToolLike, properties: Record<string, unknown>): boolean {
  try {
    for (const key of Object.keys(properties)) {
      tool[key] = properties[key];
      if (tool[key] !== properties[key]) return false;
    }
    return true;
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
  kind: ToolsKind,
  tools: T,
  agent: object,
): { tools: T; listed: Promise<void> | undefined } {
  try {
    if (!hasProperties(tools)) return { tools, listed: undefined };
    const state = host.tools;
    const map = tools as Record<string, unknown>;
    const names: string[] = [];
    const runTools: ToolLike[] = [];
    const run: RunTools = { kind, agent, names, tools: runTools, verified: [] };
    let copies: Record<string, unknown> | undefined;
    for (const name of Object.keys(map)) {
      const tool = map[name];
      if (!isObject(tool) || typeof tool.execute !== 'function') continue;
      const at = names.length;
      names.push(name);
      runTools.push(tool);
      run.verified.push(false);
      if (state.made.has(tool)) continue;
      const call: CheckedTool = {
        host,
        tool,
        name,
        scope: agent,
        listed: () => verified(host, run, at),
      };
      const checked = kind.checked(call);
      if (setInPlace(tool, checked)) {
        state.made.add(tool);
        continue;
      }
      const copy = copyWith(tool, checked);
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
        ? listRun(host, run)
        : state.listed.get(agent);
    return { tools: (copies ?? tools) as T, listed };
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools left unchecked`, error);
    return { tools, listed: undefined };
  }
}
