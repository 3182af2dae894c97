/**
 * Polling helpers for tests that run external programs (the collector,
 * Prometheus, Alertmanager): waiting on another process's state is polled
 * with a deadline, never slept on blindly.
 */
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Poll `probe` until it returns something other than `undefined`, or fail at
 * the deadline with what was being waited for, the probe's last error, and
 * `detail()` (for example the stderr of the processes involved).
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; detail?: () => string } = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) break;
    await pause(intervalMs);
  }
  const last = lastError instanceof Error ? `\nlast error: ${lastError.message}` : '';
  const detail = options.detail ? `\n${options.detail()}` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}${detail}`);
}
