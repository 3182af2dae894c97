/**
 * Framework tools as argcheck sees them: their input schemas handed to the
 * engine as catalogs (string enums become derived value sets named
 * `<origin>:<tool>.<path>`), and tools kept in a map of name → tool with
 * `execute(input, options)` (the AI SDK's `tools`, a Mastra agent's
 * `tools`) replaced by checked copies.
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

/** Per instrumentation: copies made, scopes listed. */
export interface ToolsState {
  readonly copies: WeakMap<object, Map<string, ToolLike>>;
  /** Copies this instance made, and tools it checks in place (`run-tools.ts`). */
  readonly made: WeakSet<object>;
  /** Scopes whose listing is in use, or on its way (the promise to wait for). */
  readonly listed: WeakMap<object, Promise<void> | undefined>;
  /** Scopes listed again and again (an agent's run, a session's servers): what they listed last. */
  readonly last: WeakMap<object, Listed>;
  /** Tools maps checked, by the map given: its checked map. */
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

/** A copy of `tool` (prototype and every property descriptor) with `properties` set on it. */
export function copyWith(tool: ToolLike, properties: Record<string, unknown>): ToolLike {
  // The descriptors replaced before the copy is made: a frozen tool's are not configurable.
  const descriptors = Object.getOwnPropertyDescriptors(tool);
  for (const [key, value] of Object.entries(properties)) {
    descriptors[key] = { value, writable: true, enumerable: true, configurable: true };
  }
  return Object.create(Object.getPrototypeOf(tool) as object | null, descriptors) as ToolLike;
}

function checkedCopy(kind: ToolsKind, call: CheckedTool): ToolLike {
  const copy = copyWith(call.tool, kind.checked(call));
  call.host.tools.made.add(copy);
  return copy;
}

export type Execute = (this: unknown, input: unknown, options?: unknown) => unknown;

export function toolCallIdOf(options: unknown): unknown {
  return isObject(options) ? options.toolCallId : undefined;
}

/**
 * One call of a tool whose framework validates its input inside `execute`
 * (Mastra): checked through `engine.invoke` under `name` in `scope`, then
 * `execute` runs on `self` with the arguments decided, or `rejection`
 * answers the repair message.
 */
export function invokeTool(
  engine: Engine,
  kind: ToolsKind,
  name: string,
  scope: object,
  execute: Execute,
  self: unknown,
  input: unknown,
  options: unknown,
  rejection: (message: string) => unknown,
): unknown {
  return engine.invoke(
    {
      tool: name,
      args: input,
      context: frameworkContext(toolCallIdOf(options)),
      scope,
      integration: kind.integration,
      attribution: kind.attributionOf?.(scope),
    },
    (args) => execute.call(self, args, options),
    rejection,
  );
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
    const listed = call.listed();
    if (listed === undefined) {
      return invokeTool(engine, kind, name, scope, execute, this, input, options, rejection);
    }
    return listed.then(() =>
      invokeTool(engine, kind, name, scope, execute, this, input, options, rejection),
    );
  };
}

/** Where a framework's tool catalogs come from: the set names' first part, and the integration. */
export interface CatalogSource {
  readonly origin: string;
  readonly integration: IntegrationName;
}

/** One tool of a catalog: its name, a reader of its input schema (may throw), its description. */
export type CatalogEntry = readonly [name: string, schema: () => unknown, description?: unknown];

/** What a scope's catalog was listed as: the names, input schemas and descriptions the engine took. */
export interface Listed {
  readonly derive: boolean;
  readonly names: readonly string[];
  /** A schema still a promise when listed is `undefined` here. */
  readonly schemas: readonly unknown[];
  readonly descriptions: readonly (string | undefined)[];
}

/**
 * Hand the input schemas of `tools` to the engine as the catalog of `scope`,
 * on the scope's first sight only: a tool object's schema does not change.
 * Returns a promise, bounded (`boundedWait`), that settles once calls in the
 * scope see the derived sets, or `undefined` when there is nothing to wait
 * for. Never throws, never rejects.
 */
export function listTools(
  host: Host,
  engine: Engine,
  scope: object,
  source: CatalogSource,
  tools: readonly CatalogEntry[],
): Promise<void> | undefined {
  const state = host.tools;
  if (state.listed.has(scope)) return state.listed.get(scope);
  return listScope(host, engine, scope, source, tools);
}

/**
 * List `tools` as the catalog of `scope` unless they are what it listed
 * last: the same names in the same order, the same descriptions, and
 * schemas of the same structure (a scope listed at every session or run, its
 * tools read anew each time). Never throws, never rejects.
 */
export function listChanged(
  host: Host,
  engine: Engine,
  scope: object,
  source: CatalogSource,
  tools: readonly CatalogEntry[],
): Promise<void> | undefined {
  const state = host.tools;
  const last = state.last.get(scope);
  try {
    if (last !== undefined && sameListing(host, last, tools)) return state.listed.get(scope);
  } catch {
    // An unreadable schema: listed again, where it is read once more and reported.
  }
  return listScope(host, engine, scope, source, tools, (listed) => state.last.set(scope, listed));
}

/** Whether `tools` are what `last` listed. May throw (a schema reader). */
function sameListing(host: Host, last: Listed, tools: readonly CatalogEntry[]): boolean {
  if (last.derive !== host.deriveFrameworkSets() || last.names.length !== tools.length) {
    return false;
  }
  for (let i = 0; i < tools.length; i++) {
    const [name, schema, description] = tools[i] as CatalogEntry;
    if (last.names[i] !== name) return false;
    if (last.descriptions[i] !== (typeof description === 'string' ? description : undefined)) {
      return false;
    }
    if (last.derive && !sameStructure(last.schemas[i], schema())) return false;
  }
  return true;
}

/**
 * List `tools` as the catalog of `scope` now, whatever was listed before;
 * `onListed` is told what the engine took. The tool names are listed
 * whatever `frameworks.deriveValueSets` says: they name the calls' series.
 * Never throws, never rejects.
 */
export function listScope(
  host: Host,
  engine: Engine,
  scope: object,
  source: CatalogSource,
  tools: readonly CatalogEntry[],
  onListed?: (listed: Listed) => void,
): Promise<void> | undefined {
  const { origin } = source;
  const state = host.tools;
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
    onListed?.({
      derive,
      names,
      schemas: schemas.map((schema) => (schema instanceof Promise ? undefined : schema)),
      descriptions,
    });
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
 * `tools` with every executable tool replaced by its checked copy, each
 * tool listed as a catalog of its own, once. Returns `tools` itself when
 * there is nothing to replace. Never throws: anything unexpected leaves the
 * map as it came. (An agent's tools built anew for every run: `run-tools.ts`.)
 */
export function checkTools<T>(host: Host, kind: ToolsKind, tools: T): T {
  try {
    if (!hasProperties(tools)) return tools;
    const state = host.tools;
    // The same map again (an app passes its tools to every generateText call).
    const kept = state.maps.get(tools);
    if (kept !== undefined && kept.kind === kind && unchanged(state, kept, tools)) {
      return kept.checked as T;
    }
    const all = Object.entries(tools as ToolsMap);
    const fresh = all.filter(
      (entry): entry is [string, ToolLike] =>
        isObject(entry[1]) && typeof entry[1].execute === 'function' && !state.made.has(entry[1]),
    );
    if (fresh.length === 0) return tools;
    host.seen(kind.integration);
    // Listed now when the instrumentation is on; otherwise at the first call (`listed()`).
    const engine = host.engine();
    const checked = Object.create(Object.getPrototypeOf(tools) as object | null) as Record<
      string,
      unknown
    >;
    Object.assign(checked, tools);
    for (const [name, tool] of fresh) {
      const catalog: CatalogEntry[] = [[name, () => kind.inputSchema(tool), tool.description]];
      if (engine !== undefined) void listTools(host, engine, tool, kind, catalog);
      let byName = state.copies.get(tool);
      if (byName === undefined) state.copies.set(tool, (byName = new Map<string, ToolLike>()));
      let copy = byName.get(name);
      if (copy === undefined) {
        copy = checkedCopy(kind, {
          host,
          tool,
          name,
          scope: tool,
          listed: () => {
            if (state.listed.has(tool)) return state.listed.get(tool);
            const current = host.engine();
            return current === undefined
              ? undefined
              : listTools(host, current, tool, kind, catalog);
          },
        });
        byName.set(name, copy);
      }
      checked[name] = copy;
    }
    state.maps.set(tools, {
      kind,
      names: all.map(([name]) => name),
      values: all.map(([, value]) => value),
      tools: fresh.map(([, tool]) => tool),
      checked,
    });
    return checked as T;
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools left unchecked`, error);
    return tools;
  }
}
