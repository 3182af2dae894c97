/**
 * The log record that says which text a `tool_definition` value stands for,
 * written the first time the value is seen for a tool. The text comes from
 * the tool's catalog (its description and input schema as listed), never
 * from model output; each part is cut at `MAX_DEFINITION_TEXT`.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { MAX_DEFINITION_TEXT } from '../catalog/tool-definitions.js';
import type { ToolDefinition } from '../catalog/tool-definitions.js';
import {
  ATTR_TOOL,
  ATTR_TOOL_DEFINITION,
  ATTR_TOOL_DESCRIPTION,
  ATTR_TOOL_INPUT_SCHEMA,
  EVENT_TOOL_ARGUMENT_TOOL_DEFINITION,
} from '../semconv.js';
import { safeName } from '../telemetry/safe-name.js';
import type { LogEmitter } from './check-log.js';
import { truncate } from './value-text.js';

const SEVERITY_INFO = 9;

export function definitionRecorder(
  logger: () => LogEmitter,
  diag: DiagLogger,
): (tool: string, definition: ToolDefinition) => void {
  return (tool, definition) => {
    try {
      logger().emit({
        eventName: EVENT_TOOL_ARGUMENT_TOOL_DEFINITION,
        severityNumber: SEVERITY_INFO,
        severityText: 'INFO',
        attributes: {
          [ATTR_TOOL]: safeName(tool),
          [ATTR_TOOL_DEFINITION]: definition.hash,
          [ATTR_TOOL_DESCRIPTION]: truncate(definition.description, MAX_DEFINITION_TEXT).text,
          [ATTR_TOOL_INPUT_SCHEMA]: truncate(definition.inputSchema, MAX_DEFINITION_TEXT).text,
        },
      });
    } catch (error) {
      diag.debug('a tool definition record could not be written', error);
    }
  };
}
