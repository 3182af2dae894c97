/**
 * What the OpenAI Agents and LangChain integrations share: how a framework
 * tool's own input schema becomes a one-tool catalog for derived value sets,
 * how a call's context is read, and how a framework patch reaches the engine.
 */
import type { DiagLogger } from '@opentelemetry/api';
import type { CheckContext } from '@argcheck/core';
import type { Engine } from '../engine.js';
import { callContext, TOOL_CALL_ID_KEY } from '../mcp/call-context.js';
import { MAX_CATALOG_WAIT_MS } from '../mcp/patches.js';

/** What a framework integration needs from the instrumentation, read at each call. */
export interface FrameworkHost {
  engine(): Engine | undefined;
  /** `frameworks.deriveValueSets` of the configuration in force. */
  deriveValueSets(): boolean;
  diag: DiagLogger;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * The context of a framework call, read only when a log record is written:
 * the framework's call id, and the conversation id from the active baggage.
 */
export function frameworkContext(toolCallId: unknown): () => CheckContext {
  return () =>
    callContext(
      typeof toolCallId === 'string' ? { _meta: { [TOOL_CALL_ID_KEY]: toolCallId } } : {},
    );
}

/** Tools whose schema has been handed to the engine (or could not be): listed once per tool object. */
const listed = new WeakMap<object, Promise<void> | undefined>();

function bounded(ready: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_CATALOG_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([ready, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Hand `tool`'s input schema (JSON Schema, from `inputSchema()`) to the
 * engine the first time the tool is called, as a catalog of one tool whose
 * scope is the tool object, so string enums in it become derived sets named
 * `<origin>:<tool>.<path>`. Returns a promise, bounded like a listing's wait,
 * to await before that first call is checked, or `undefined` when there is
 * nothing to wait for. Never throws, never rejects.
 */
export function listToolOnce(
  host: FrameworkHost,
  engine: Engine,
  tool: object,
  name: string,
  origin: string,
  inputSchema: () => unknown,
): Promise<void> | undefined {
  if (listed.has(tool)) return listed.get(tool);
  let waiting: Promise<void> | undefined;
  try {
    if (host.deriveValueSets()) {
      const ready = engine.toolsListed(tool, {
        tools: [{ name, inputSchema: inputSchema() }],
        origin,
      });
      if (ready !== undefined) {
        waiting = bounded(ready).then(() => {
          listed.set(tool, undefined);
        });
      }
    }
  } catch (error) {
    host.diag.debug(`argcheck: the input schema of ${origin} tool could not be read`, error);
  }
  listed.set(tool, waiting);
  return waiting;
}
