/** Delay before the first retry, before jitter, in milliseconds. */
export const BACKOFF_BASE_MS = 1_000;

/** Upper bound on the pre-jitter delay, in milliseconds; the TTL lowers it further when shorter. */
export const BACKOFF_CAP_MS = 60_000;

/**
 * How long to wait before attempt `failures + 1` after `failures` consecutive
 * failed attempts: `BACKOFF_BASE_MS` doubled per failure, capped at
 * `min(ttlMs, BACKOFF_CAP_MS)`, then "equal jitter": the result lies in
 * `[delay / 2, delay)`, placed by `random` in [0, 1). Half the delay is kept
 * fixed so that unlucky draws never turn into a tight retry loop; the other
 * half spreads out the processes that lost the owner at the same moment.
 *
 * With the defaults and `random() = 0.5`: 750 ms, 1.5 s, 3 s, 6 s, 12 s, 24 s,
 * then 45 s for every later retry.
 */
export function retryDelayMs(failures: number, ttlMs: number, random: number): number {
  const doublings = Math.min(Math.max(failures - 1, 0), 30);
  const delay = Math.min(BACKOFF_BASE_MS * 2 ** doublings, ttlMs, BACKOFF_CAP_MS);
  return Math.round((delay / 2) * (1 + random));
}
