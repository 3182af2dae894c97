/**
 * Waiting on another process's state (a program becoming ready, data arriving
 * in Prometheus): polled with a deadline, never slept on blindly.
 */

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Poll `probe` until it returns something other than `undefined`, or fail at
 * the deadline with what was being waited for, the probe's last error, and
 * `detail()` (for example the output of the processes involved).
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  options: {
    timeoutMs?: number;
    intervalMs?: number;
    detail?: () => string;
    /** Checked before each probe: an error ends the wait at once (a program that exited). */
    giveUp?: () => Error | undefined;
  } = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    const fatal = options.giveUp?.();
    if (fatal) throw fatal;
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
