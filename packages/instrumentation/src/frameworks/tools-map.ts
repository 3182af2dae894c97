/**
 * Tools kept in a map of name → tool with `execute(input, options)`: the AI
 * SDK's `tools`, and the tools a Mastra agent converts for its loop (AI SDK
 * tools too). A checked map holds, for each executable tool, a copy whose
 * `execute` goes through the engine's seam (`engine.invoke`) under the map's
 * key, the name the model calls the tool by. The user's tools and map are
 * never changed; a copy is made once per tool and name, and a map that is
 * checked already comes back as it is, so a call patched both ways (the
 * explicit entry point and auto-patching) is checked once.
 *
 * String enums in a tool's input schema become derived value sets named
 * `<origin>:<tool>.<path>`, listed under a scope the framework chooses (the
 * tool object for the AI SDK, the agent for Mastra).
 */
import type { DiagLogger } from '@opentelemetry/api';
import type { CheckContext } from '@argcheck/core';
import { runChecked } from '../checked-calls.js';
import type { Engine } from '../engine.js';
import { callContext, TOOL_CALL_ID_KEY } from '../mcp/call-context.js';
import { MAX_CATALOG_WAIT_MS } from '../mcp/patches.js';

/** What a framework integration needs from the instrumentation, read at each call. */
export interface FrameworkHost {
  engine(): Engine | undefined;
  /** `frameworks.deriveValueSets` of the configuration in force. */
  deriveValueSets(): boolean;
  readonly diag: DiagLogger;
}

/** A framework tool as far as argcheck reads it. */
export interface ToolLike {
  execute?: unknown;
  toModelOutput?: unknown;
  [key: string]: unknown;
}

export type ToolsMap = Readonly<Record<string, unknown>>;

/** How one framework's tools are read, checked and answered. */
export interface ToolsKind {
  /** The first part of derived set names (`ai-sdk`, `mastra`). */
  readonly origin: string;
  /** The tool's input schema as JSON Schema (or a promise of it), or `undefined`. May throw. */
  inputSchema(tool: ToolLike): unknown;
  /**
   * The checked copy's own properties that differ from the tool's: at least
   * `execute`. `listed()` is the scope's listing still loading, if any.
   */
  checked(call: CheckedTool): Record<string, unknown>;
}

/** What a kind needs to make one tool's checked copy. */
export interface CheckedTool {
  readonly host: FrameworkHost;
  readonly tool: ToolLike;
  /** The tool's name as the model calls it (its key in the map). */
  readonly name: string;
  /** The scope of its derived sets. */
  readonly scope: object;
  listed(): Promise<void> | undefined;
}

/** Per instrumentation: copies made, scopes listed. */
export interface ToolsState {
  readonly copies: WeakMap<object, Map<string, ToolLike>>;
  /** Scopes whose listing is in use, or on its way (the promise to wait for). */
  readonly listed: WeakMap<object, Promise<void> | undefined>;
}

export function createToolsState(): ToolsState {
  return { copies: new WeakMap(), listed: new WeakMap() };
}

/** The tool a checked copy was made from. */
const ORIGINAL = Symbol.for('argcheck.framework-tool');

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

export function isCheckedTool(tool: unknown): boolean {
  return isObject(tool) && ORIGINAL in tool;
}

/** The context of a framework call, read only for a log record: its call id and the baggage's conversation. */
export function frameworkContext(toolCallId: unknown): () => CheckContext {
  return () =>
    callContext(
      typeof toolCallId === 'string' ? { _meta: { [TOOL_CALL_ID_KEY]: toolCallId } } : {},
    );
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
  Object.defineProperty(copy, ORIGINAL, { value: call.tool });
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
        { tool: name, args: input, context: frameworkContext(toolCallIdOf(options)), scope },
        (args) => execute.call(this, args, options),
        rejection,
      );
    const listed = call.listed();
    return listed === undefined ? run() : listed.then(run);
  };
}

/** Run a tool already checked (its arguments decided earlier) with the call marked, for the MCP client inside. */
export function runMarked<T>(run: () => T, args: unknown): T {
  return runChecked(run, args);
}

function bounded(ready: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_CATALOG_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([ready, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Hand the enums of `tools` to the engine as the catalog of `scope`. With
 * `once`, a scope is listed on its first sight only (a tool object's schema
 * does not change); without it, every time (an agent's tools may). Returns a
 * promise, bounded like an MCP listing's wait, that settles once calls in the
 * scope see the derived sets, or `undefined`. Never throws, never rejects.
 */
export function listTools(
  host: FrameworkHost,
  state: ToolsState,
  kind: ToolsKind,
  scope: object,
  tools: readonly (readonly [string, ToolLike])[],
  once: boolean,
): Promise<void> | undefined {
  if (once && state.listed.has(scope)) return state.listed.get(scope);
  let waiting: Promise<void> | undefined;
  try {
    const engine = host.engine();
    if (engine !== undefined && host.deriveValueSets()) {
      const schemas = tools.map(([name, tool]) => {
        try {
          return kind.inputSchema(tool);
        } catch (error) {
          host.diag.debug(
            `argcheck: the input schema of ${kind.origin} tool ${name} is unreadable`,
            error,
          );
          return undefined;
        }
      });
      const list = (resolved: readonly unknown[]) =>
        engine.toolsListed(scope, {
          tools: tools.map(([name], i) => ({ name, inputSchema: resolved[i] })),
          origin: kind.origin,
        });
      const ready = schemas.some((schema) => schema instanceof Promise)
        ? Promise.all(schemas.map((schema) => Promise.resolve(schema).catch(() => undefined))).then(
            list,
          )
        : list(schemas);
      if (ready !== undefined) {
        waiting = bounded(ready).then(() => {
          state.listed.set(scope, undefined);
        });
      }
    }
  } catch (error) {
    host.diag.debug(`argcheck: ${kind.origin} tools could not be listed`, error);
  }
  state.listed.set(scope, waiting);
  return waiting;
}

/**
 * `tools` with every executable tool replaced by its checked copy, listed
 * under `scopeOf(tool)` (or the tool itself). Returns `tools` itself when
 * there is nothing to replace. Never throws: anything unexpected leaves the
 * map as it came.
 */
export function checkTools<T>(
  host: FrameworkHost,
  state: ToolsState,
  kind: ToolsKind,
  tools: T,
  agentScope?: object,
): { tools: T; listed: Promise<void> | undefined } {
  try {
    if (!isObject(tools)) return { tools, listed: undefined };
    const entries = Object.entries(tools as ToolsMap).filter(
      (entry): entry is [string, ToolLike] =>
        isObject(entry[1]) && typeof entry[1].execute === 'function',
    );
    const fresh = entries.filter(([, tool]) => !isCheckedTool(tool));
    if (fresh.length === 0) return { tools, listed: undefined };
    const waits: Promise<void>[] = [];
    const wait = (p: Promise<void> | undefined) => p !== undefined && waits.push(p);
    if (agentScope !== undefined) wait(listTools(host, state, kind, agentScope, entries, false));
    const checked = Object.create(Object.getPrototypeOf(tools) as object | null) as Record<
      string,
      unknown
    >;
    Object.assign(checked, tools);
    for (const [name, tool] of fresh) {
      if (agentScope === undefined) wait(listTools(host, state, kind, tool, [[name, tool]], true));
      let byName = state.copies.get(tool);
      if (byName === undefined) state.copies.set(tool, (byName = new Map<string, ToolLike>()));
      let copy = byName.get(name);
      if (copy === undefined) {
        const scope = agentScope ?? tool;
        copy = checkedCopy(kind, {
          host,
          tool,
          name,
          scope,
          listed: () => state.listed.get(scope),
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
