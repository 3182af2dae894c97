import type { Clock } from '@argcheck/core';

/**
 * The value-set provider's clock in the demo. Its time is the scheduled time
 * of the call being made, and its timers run between calls, when the run
 * reaches them; so when a set goes stale, refreshes, fails, retries or expires
 * depends on the calls alone and not on how well the machine kept pace. With
 * the agent and the log sampling seeded, the same seed then checks the same
 * calls against the same sets and samples the same records on every run.
 */
export interface CallClock extends Clock {
  /**
   * Moves time forward to `at` (never back), running the timers due by then in
   * order of their due time; timers they set run too if due. Whether any ran.
   */
  advanceTo(at: number): boolean;
}

interface Timer {
  due: number;
  run: () => void;
}

export function createCallClock(origin: number): CallClock {
  let now = origin;
  let lastId = 0;
  // Insertion order breaks ties between timers due at the same time.
  const timers = new Map<number, Timer>();
  const nextDue = (by: number): [number, Timer] | undefined => {
    let next: [number, Timer] | undefined;
    for (const entry of timers) {
      if (entry[1].due <= by && (next === undefined || entry[1].due < next[1].due)) next = entry;
    }
    return next;
  };
  return {
    now: () => now,
    setTimeout(run, ms) {
      lastId += 1;
      timers.set(lastId, { due: now + Math.max(0, ms), run });
      return lastId;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advanceTo(at) {
      let ran = false;
      for (let next = nextDue(at); next !== undefined; next = nextDue(at)) {
        timers.delete(next[0]);
        now = Math.max(now, next[1].due);
        next[1].run();
        ran = true;
      }
      now = Math.max(now, at);
      return ran;
    },
  };
}
