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
  /** Copies this instance made. */
  readonly made: WeakSet<object>;
  /** Scopes whose listing is in use, or on its way (the promise to wait for). */
  readonly listed: WeakMap<object, Promise<void> | undefined>;
}

export function createToolsState(): ToolsState {
  return { copies: new WeakMap(), made: new WeakSet(), listed: new WeakMap() };
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
  tools: readonly (readonly [name: string, schema: () => unknown])[],
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
    const list = (resolved: readonly unknown[]) =>
      engine.toolsListed(scope, {
        tools: tools.map(([name], i) => ({ name, inputSchema: resolved[i] })),
        origin,
        integration: source.integration,
      });
    const ready = schemas.some((schema) => schema instanceof Promise)
      ? Promise.all(schemas.map((schema) => Promise.resolve(schema).catch(() => undefined))).then(
          list,
        )
      : list(schemas);
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
    const entries = Object.entries(tools as ToolsMap).filter(
      (entry): entry is [string, ToolLike] =>
        isObject(entry[1]) && typeof entry[1].execute === 'function',
    );
    const fresh = entries.filter(([, tool]) => !state.made.has(tool));
    if (fresh.length === 0) return { tools, listed: undefined };
    host.seen(kind.integration);
    const schemas = (list: readonly (readonly [string, ToolLike])[]) =>
      list.map(([name, tool]) => [name, () => kind.inputSchema(tool)] as const);
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
      let byName = state.copies.get(tool);
      if (byName === undefined) state.copies.set(tool, (byName = new Map<string, ToolLike>()));
      let copy = byName.get(name);
      if (copy === undefined) {
        copy = checkedCopy(kind, {
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
        byName.set(name, copy);
      }
      checked[name] = copy;
    }
    const listed = waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
    return { tools: checked as T, listed };
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools left unchecked`, error);
    return { tools, listed: undefined };
  }
}
