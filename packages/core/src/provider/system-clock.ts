import type { Clock } from '../types.js';

/**
 * The real clock. Timer handles are unref'd: a provider refreshing in the
 * background must never be the reason a process stays alive.
 */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout(fn: () => void, ms: number): unknown {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle: unknown): void {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
});
