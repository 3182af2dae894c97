/**
 * Mastra tools as its agents run them: `convertTools` turns every tool an
 * agent may call (its own, toolsets, MCP, memory, workspace) into an AI SDK
 * style tool, whose `parameters` is a schema with `jsonSchema`. A rejected
 * call answers `{ error: true, message }`, the shape of Mastra's own answer to
 * tool input that fails validation, so the model sees a familiar failure.
 */
import { jsonSchemaOf } from '../ai-sdk/tools.js';
import { invokingExecute } from '../tools-map.js';
import type { ToolLike, ToolsKind } from '../tools-map.js';

export interface MastraRejection {
  error: true;
  message: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function mastraRejection(message: string): MastraRejection {
  return { error: true, message };
}

export const MASTRA_TOOLS: ToolsKind = {
  origin: 'mastra',
  inputSchema(tool: ToolLike) {
    const parameters = tool.parameters;
    if (isObject(parameters) && 'jsonSchema' in parameters) return parameters.jsonSchema;
    return jsonSchemaOf(tool.inputSchema, undefined);
  },
  checked: (call) => ({ execute: invokingExecute(call, mastraRejection) }),
};
