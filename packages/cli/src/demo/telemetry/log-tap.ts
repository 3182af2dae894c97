import { createWriteStream, type WriteStream } from 'node:fs';
import type { LogRecordProcessor, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import {
  ATTR_TOOL,
  ATTR_TOOL_DEFINITION,
  ATTR_TOOL_DESCRIPTION,
  EVENT_TOOL_ARGUMENT_TOOL_DEFINITION,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '@argcheck/instrumentation/semconv';

/** What one `tool_definition` value stands for, as its log record says. */
export interface ToolDefinitionRecord {
  tool: string;
  toolDefinition: string;
  description: string;
}

/** Counts the sampled log records and, when asked, keeps them as JSON lines. */
export interface LogTap extends LogRecordProcessor {
  /** Sampled check records emitted so far (tool definition records are written, not counted). */
  count(): number;
  /** The tool definition records emitted so far, in order. */
  definitions(): ToolDefinitionRecord[];
}

/**
 * A log record processor for the demo: a count for the summary, and with
 * `file` one plain JSON line per record, the input `argcheck report` reads.
 */
export function createLogTap(file?: string): LogTap {
  let count = 0;
  const definitions: ToolDefinitionRecord[] = [];
  const out: WriteStream | undefined = file ? createWriteStream(file) : undefined;
  return {
    count: () => count,
    definitions: () => [...definitions],
    onEmit(record: ReadWriteLogRecord) {
      if (record.eventName === EVENT_TOOL_ARGUMENT_VALUE_CHECK) count += 1;
      if (record.eventName === EVENT_TOOL_ARGUMENT_TOOL_DEFINITION) {
        const text = (key: string): string => {
          const value = record.attributes[key];
          return typeof value === 'string' ? value : '';
        };
        definitions.push({
          tool: text(ATTR_TOOL),
          toolDefinition: text(ATTR_TOOL_DEFINITION),
          description: text(ATTR_TOOL_DESCRIPTION),
        });
      }
      if (!out) return;
      out.write(
        `${JSON.stringify({ eventName: record.eventName, attributes: record.attributes })}\n`,
      );
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () =>
      new Promise<void>((resolve, reject) => {
        if (!out) return resolve();
        out.once('error', reject);
        out.end(resolve);
      }),
  };
}
