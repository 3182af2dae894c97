import { createWriteStream, type WriteStream } from 'node:fs';
import type { LogRecordProcessor, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import { EVENT_TOOL_ARGUMENT_VALUE_CHECK } from '@argcheck/instrumentation/semconv';

/** Counts the sampled log records and, when asked, keeps them as JSON lines. */
export interface LogTap extends LogRecordProcessor {
  /** Sampled check records emitted so far (tool definition records are written, not counted). */
  count(): number;
}

/**
 * A log record processor for the demo: a count for the summary, and with
 * `file` one plain JSON line per record, the input `argcheck report` reads.
 */
export function createLogTap(file?: string): LogTap {
  let count = 0;
  const out: WriteStream | undefined = file ? createWriteStream(file) : undefined;
  return {
    count: () => count,
    onEmit(record: ReadWriteLogRecord) {
      if (record.eventName === EVENT_TOOL_ARGUMENT_VALUE_CHECK) count += 1;
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
