import * as api from '@opentelemetry/api';

/**
 * Undo what NodeSDK or a test registered globally. The logs API lives in
 * @opentelemetry/api on OTel JS 3.x and in @opentelemetry/api-logs on 2.x;
 * reset whichever exist, so the same test runs on both lines.
 */
export async function resetGlobals(): Promise<void> {
  api.metrics.disable();
  api.trace.disable();
  api.context.disable();
  api.propagation.disable();
  (api as unknown as { logs?: { disable(): void } }).logs?.disable();
  const apiLogs = '@opentelemetry/api-logs';
  try {
    const mod = (await import(apiLogs)) as { logs?: { disable(): void } };
    mod.logs?.disable();
  } catch {
    // Not installed on the 3.x line.
  }
}
