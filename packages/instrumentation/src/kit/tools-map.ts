/**
 * Framework tools as argcheck sees them: their input schemas handed to the
 * engine as catalogs (string enums become derived value sets named
 * `<origin>:<tool>.<path>`), and tools kept in a map of name → tool with
 * `execute(input, options)` (the AI SDK's `tools`, the tools a Mastra agent
 * converts for its loop) replaced by checked copies.
 *
 * A checked map holds, for each executable tool, a copy whose own
 * properties (at least `execute`) go through the engine's seam under the
 * map's key, the name the model calls the tool by. The user's tools and map
 * are never changed; a copy is made once per tool and name, and a map this
 * instance checked already comes back as it is, so a call reached both ways
 * (the explicit entry point and auto-patching) is checked once. A copy made
 * by another instance is copied again: each instance checks its own way.
 */
import type { Engine } from '../engine/engine.js';
import type { RunAttribution } from '../engine/run-scope.js';
import { sameStructure } from '../engine/same-arguments.js';
import type { IntegrationName } from '../semconv.js';
import { boundedWait } from './bounded-wait.js';
import { frameworkContext } from './call-context.js';
import type { Host } from './host.js';
import { hasProperties, isObject } from './values.js';

/** A framework tool as far as argcheck reads it. */
export interface ToolLike {
  execute?: unknown;
  toModelOutput?: unknown;
  [key: string]: unknown;
}

export type ToolsMap = Readonly<Record<string, unknown>>;

/** How one framework's tools are read, checked and answered. */
export interface ToolsKind extends CatalogSource {
  /** The tool's input schema as JSON Schema (or a promise of it), or `undefined`. May throw. */
  inputSchema(tool: ToolLike): unknown;
  /** The checked copy's own properties that differ from the tool's: at least `execute`. */
  checked(call: CheckedTool): Record<string, unknown>;
  /** What produced a call in `scope` (an agent's model and name), where the framework says. Never throws. */
  attributionOf?(scope: object): RunAttribution | undefined;
}

/** What a kind needs to make one tool's checked copy. */
export interface CheckedTool {
  readonly host: Host;
  readonly tool: ToolLike;
  /** The tool's name as the model calls it (its key in the map). */
  readonly name: string;
  /** The scope of its derived sets. */
  readonly scope: object;
  /** The scope's listing still loading, if any: wait for it before checking. */
  listed(): Promise<void> | undefined;
}

/** What a scope listed last: its tools' names and schemas, and whether sets were derived. */
interface LastListing {
  readonly derive: boolean;
  readonly names: readonly string[];
  readonly schemas: readonly unknown[];
  readonly descriptions: readonly (string | undefined)[];
}

/** Per instrumentation: copies made, scopes listed. */
export interface ToolsState {
  readonly copies: WeakMap<object, Map<string, ToolLike>>;
  /** Copies this instance made. */
  readonly made: WeakSet<object>;
  /** Scopes whose listing is in use, or on its way (the promise to wait for). */
  readonly listed: WeakMap<object, Promise<void> | undefined>;
  /** Scopes listed every time (an agent's tools): what they listed last. */
  readonly last: WeakMap<object, LastListing>;
  /** Tools maps checked without an agent scope, by the map given: its checked map. */
  readonly maps: WeakMap<object, CheckedMap>;
}

/** A tools map as it was checked: its entries then, and the checked map made of them. */
interface CheckedMap {
  readonly kind: ToolsKind;
  readonly names: readonly string[];
  readonly values: readonly unknown[];
  /** The tools that got a checked copy. */
  readonly tools: readonly object[];
  readonly checked: unknown;
}

export function createToolsState(): ToolsState {
  return {
    copies: new WeakMap(),
    made: new WeakSet(),
    listed: new WeakMap(),
    last: new WeakMap(),
    maps: new WeakMap(),
  };
}

/**
 * The same listing as the scope's last: the same names in the same order,
 * and schemas of the same structure. A framework that builds an agent's
 * tools anew for every run (Mastra) gives new schema objects of the same
 * content each time; the engine would derive the same catalog from them.
 */
function sameListing(
  last: LastListing | undefined,
  derive: boolean,
  names: readonly string[],
  schemas: readonly unknown[],
  descriptions: readonly (string | undefined)[],
): boolean {
  if (last === undefined || last.derive !== derive || last.names.length !== names.length) {
    return false;
  }
  for (let i = 0; i < names.length; i++) {
    if (last.names[i] !== names[i] || last.descriptions[i] !== descriptions[i]) return false;
    if (!sameStructure(last.schemas[i], schemas[i])) return false;
  }
  return true;
}

function checkedCopy(kind: ToolsKind, call: CheckedTool): ToolLike {
  const copy = Object.create(
    Object.getPrototypeOf(call.tool) as object | null,
    Object.getOwnPropertyDescriptors(call.tool),
  ) as ToolLike;
  for (const [key, value] of Object.entries(kind.checked(call))) {
    Object.defineProperty(copy, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  call.host.tools.made.add(copy);
  return copy;
}

/**
 * The checked copy of a tool an agent's framework built for one run: a
 * plain object is copied as the framework copies its own tools when it
 * wraps them with hooks (`{ ...tool, execute }`), far cheaper than keeping
 * every descriptor; any other object the way `checkedCopy` does.
 */
function runCopy(kind: ToolsKind, call: CheckedTool): ToolLike {
  const tool = call.tool;
  if (Object.getPrototypeOf(tool) !== Object.prototype) return checkedCopy(kind, call);
  const copy: ToolLike = { ...tool, ...kind.checked(call) };
  call.host.tools.made.add(copy);
  return copy;
}

type Execute = (this: unknown, input: unknown, options?: unknown) => unknown;

export function toolCallIdOf(options: unknown): unknown {
  return isObject(options) ? options.toolCallId : undefined;
}

/**
 * An `execute` that checks each call through `engine.invoke` under the
 * tool's name and answers a rejection with `rejection(repairMessage)`
 * (Mastra, where the tool validates its own input inside `execute`).
 */
export function invokingExecute(
  kind: ToolsKind,
  call: CheckedTool,
  rejection: (message: string) => unknown,
): Execute {
  const execute = call.tool.execute as Execute;
  const { host, name, scope } = call;
  return function (this: unknown, input, options) {
    const engine = host.engine();
    if (engine === undefined) return execute.call(this, input, options);
    const run = () =>
      engine.invoke(
        {
          tool: name,
          args: input,
          context: frameworkContext(toolCallIdOf(options)),
          scope,
          integration: kind.integration,
          attribution: kind.attributionOf?.(scope),
        },
        (args) => execute.call(this, args, options),
        rejection,
      );
    const listed = call.listed();
    return listed === undefined ? run() : listed.then(run);
  };
}

/**
 * Hand the input schemas of `tools` to the engine as the catalog of `scope`.
 * With `once`, a scope is listed on its first sight only (a tool object's
 * schema does not change); without it, every time (an agent's tools may).
 * Returns a promise, bounded (`boundedWait`), that settles once calls in the
 * scope see the derived sets, or `undefined` when there is nothing to wait
 * for. The tool names are listed whatever `frameworks.deriveValueSets` says:
 * they name the calls' series. Never throws, never rejects.
 */
/** Where a framework's tool catalogs come from: the set names' first part, and the integration. */
export interface CatalogSource {
  readonly origin: string;
  readonly integration: IntegrationName;
}

export function listTools(
  host: Host,
  engine: Engine,
  scope: object,
  source: CatalogSource,
  tools: readonly (readonly [name: string, schema: () => unknown, description?: unknown])[],
  once: boolean,
): Promise<void> | undefined {
  const { origin } = source;
  const state = host.tools;
  if (once && state.listed.has(scope)) return state.listed.get(scope);
  let waiting: Promise<void> | undefined;
  try {
    const derive = host.deriveFrameworkSets();
    const schemas = tools.map(([name, schema]) => {
      if (!derive) return undefined;
      try {
        return schema();
      } catch (error) {
        host.diag.debug(
          `argcheck: the input schema of ${origin} tool ${name} is unreadable`,
          error,
        );
        return undefined;
      }
    });
    const names = tools.map(([name]) => name);
    const descriptions = tools.map(([, , description]) =>
      typeof description === 'string' ? description : undefined,
    );
    const pending = schemas.some((schema) => schema instanceof Promise);
    // Listed every time: a listing the same as the last one the engine took changes nothing.
    const memo = !once && !pending;
    if (memo && sameListing(state.last.get(scope), derive, names, schemas, descriptions)) {
      return state.listed.get(scope);
    }
    const list = (resolved: readonly unknown[]) =>
      engine.toolsListed(scope, {
        tools: names.map((name, i) => ({
          name,
          description: descriptions[i],
          inputSchema: resolved[i],
        })),
        origin,
        integration: source.integration,
      });
    const ready = pending
      ? Promise.all(schemas.map((schema) => Promise.resolve(schema).catch(() => undefined))).then(
          list,
        )
      : list(schemas);
    if (memo) state.last.set(scope, { derive, names, schemas, descriptions });
    if (ready !== undefined) {
      waiting = boundedWait(ready).then(() => {
        state.listed.set(scope, undefined);
      });
    }
  } catch (error) {
    host.diag.debug(`argcheck: ${origin} tools could not be listed`, error);
  }
  state.listed.set(scope, waiting);
  return waiting;
}

/**
 * Whether `tools` holds what it held when `kept` was made of it (the same
 * names, in order, and the same objects), and every tool's listing is in
 * use, so nothing is left to wait for.
 */
function unchanged(state: ToolsState, kept: CheckedMap, tools: ToolsMap): boolean {
  const names = Object.keys(tools);
  if (names.length !== kept.names.length) return false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    if (name !== kept.names[i] || tools[name] !== kept.values[i]) return false;
  }
  for (const tool of kept.tools) {
    if (!state.listed.has(tool) || state.listed.get(tool) !== undefined) return false;
  }
  return true;
}

/**
 * `tools` with every executable tool replaced by its checked copy, listed
 * under `agentScope` (every time) or, without one, under the tool itself
 * (once). Returns `tools` itself when there is nothing to replace. Never
 * throws: anything unexpected leaves the map as it came.
 */
export function checkTools<T>(
  host: Host,
  kind: ToolsKind,
  tools: T,
  agentScope?: object,
): { tools: T; listed: Promise<void> | undefined } {
  try {
    if (!hasProperties(tools)) return { tools, listed: undefined };
    const state = host.tools;
    if (agentScope === undefined) {
      // The same map again (an app passes its tools to every generateText call).
      const kept = state.maps.get(tools);
      if (kept !== undefined && kept.kind === kind && unchanged(state, kept, tools)) {
        return { tools: kept.checked as T, listed: undefined };
      }
    }
    const all = Object.entries(tools as ToolsMap);
    const entries = all.filter(
      (entry): entry is [string, ToolLike] =>
        isObject(entry[1]) && typeof entry[1].execute === 'function',
    );
    const fresh = entries.filter(([, tool]) => !state.made.has(tool));
    if (fresh.length === 0) return { tools, listed: undefined };
    host.seen(kind.integration);
    const schemas = (list: readonly (readonly [string, ToolLike])[]) =>
      list.map(([name, tool]) => [name, () => kind.inputSchema(tool), tool.description] as const);
    // Listed now when the instrumentation is on; otherwise at the first call (`listed()`).
    const engine = host.engine();
    const waits: Promise<void>[] = [];
    const wait = (p: Promise<void> | undefined) => p !== undefined && waits.push(p);
    const agentTools = agentScope === undefined ? undefined : schemas(entries);
    if (engine !== undefined && agentScope !== undefined && agentTools !== undefined) {
      wait(listTools(host, engine, agentScope, kind, agentTools, false));
    }
    const checked = Object.create(Object.getPrototypeOf(tools) as object | null) as Record<
      string,
      unknown
    >;
    Object.assign(checked, tools);
    for (const [name, tool] of fresh) {
      const scope = agentScope ?? tool;
      const scopeTools = agentTools ?? schemas([[name, tool]]);
      if (engine !== undefined && agentScope === undefined) {
        wait(listTools(host, engine, tool, kind, scopeTools, true));
      }
      // Made only for a copy to make: a copy kept from an earlier map needs none.
      const call = (): CheckedTool => ({
        host,
        tool,
        name,
        scope,
        listed: () => {
          if (state.listed.has(scope)) return state.listed.get(scope);
          const current = host.engine();
          return current === undefined
            ? undefined
            : listTools(host, current, scope, kind, scopeTools, true);
        },
      });
      if (agentScope !== undefined) {
        // An agent's tools as its framework built them for this run: new
        // objects every run, so a copy kept for the next would never be used.
        checked[name] = runCopy(kind, call());
        continue;
      }
      let byName = state.copies.get(tool);
      if (byName === undefined) state.copies.set(tool, (byName = new Map<string, ToolLike>()));
      let copy = byName.get(name);
      if (copy === undefined) {
        copy = checkedCopy(kind, call());
        byName.set(name, copy);
      }
      checked[name] = copy;
    }
    const listed = waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
    if (agentScope === undefined) {
      state.maps.set(tools, {
        kind,
        names: all.map(([name]) => name),
        values: all.map(([, value]) => value),
        tools: fresh.map(([, tool]) => tool),
        checked,
      });
    }
    return { tools: checked as T, listed };
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools left unchecked`, error);
    return { tools, listed: undefined };
  }
}
