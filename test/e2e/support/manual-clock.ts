import type { Clock } from '@argcheck/core';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * The instrumentation's value-set clock (its public `clock` option), moved by
 * the test. Time stands still between `advance` calls, so the provider fetches
 * only when the test lets it (first fetch, TTL refreshes, retries after a
 * failure) and every figure derived from this clock is exact: a set's age, a
 * fetch's duration (0 s), the number of fetches. The OpenTelemetry SDK and the
 * programs of the pipeline run on real time.
 */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: Timer[] = [];

  /**
   * @param settle resolves when the work a fired timer started (a fetch over
   *   real HTTP) has finished; called after every timer.
   */
  constructor(
    private readonly settle: () => Promise<void>,
    start = Date.now(),
  ) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn };
    this.timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }

  /** Move time forward by `ms`, firing due timers in order and settling after each. */
  async advance(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      const due = this.timers
        .filter((t) => t.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
      await this.settle();
    }
    this.current = end;
  }
}
