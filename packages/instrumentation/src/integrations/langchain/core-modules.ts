/**
 * The two parts of `@langchain/core` a LangChain integration needs besides
 * the tool class: `ToolMessage` (a rejected ToolCall is answered with one)
 * and `toJsonSchema` (LangChain's own conversion of a tool's zod or JSON
 * schema, for derived sets). Taken from the modules the hooks see load; an
 * application without hooks (the explicit entry point) gets them from the
 * `@langchain/core` it resolves. A ToolMessage of either build is one to
 * LangChain: messages are recognised by a registered symbol and their type.
 */
import { createRequire } from 'node:module';
import { resolutionBases } from '../../kit/resolution.js';
import { isObject } from '../../kit/values.js';

type ToolMessageClass = new (fields: Record<string, unknown>) => object;
type ToJsonSchema = (schema: unknown) => unknown;

interface CoreModules {
  ToolMessage?: ToolMessageClass | undefined;
  toJsonSchema?: ToJsonSchema | undefined;
}

const captured: CoreModules = {};
let resolved: CoreModules | undefined;

/** Keep `ToolMessage` / `toJsonSchema` from a loaded module of `@langchain/core` that has them. */
export function captureCoreModule(moduleExports: unknown): void {
  if (!isObject(moduleExports)) return;
  if (typeof moduleExports.ToolMessage === 'function') {
    captured.ToolMessage = moduleExports.ToolMessage as ToolMessageClass;
  }
  if (typeof moduleExports.toJsonSchema === 'function') {
    captured.toJsonSchema = moduleExports.toJsonSchema as ToJsonSchema;
  }
}

function resolveCore(): CoreModules {
  if (resolved !== undefined) return resolved;
  resolved = {};
  for (const base of resolutionBases()) {
    try {
      const load = createRequire(base);
      const messages: unknown = load('@langchain/core/messages');
      const jsonSchema: unknown = load('@langchain/core/utils/json_schema');
      if (isObject(messages) && typeof messages.ToolMessage === 'function') {
        resolved.ToolMessage = messages.ToolMessage as ToolMessageClass;
      }
      if (isObject(jsonSchema) && typeof jsonSchema.toJsonSchema === 'function') {
        resolved.toJsonSchema = jsonSchema.toJsonSchema as ToJsonSchema;
      }
      break;
    } catch {
      // Not resolvable from this base; the next may be.
    }
  }
  return resolved;
}

export function toolMessageClass(): ToolMessageClass | undefined {
  return captured.ToolMessage ?? resolveCore().ToolMessage;
}

export function toJsonSchema(): ToJsonSchema | undefined {
  return captured.toJsonSchema ?? resolveCore().toJsonSchema;
}
