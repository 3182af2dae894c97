/**
 * A clock only the test moves, for the `clock` option of argcheck's value-set
 * provider (structurally its `Clock`: `now`, `setTimeout`, `clearTimeout`).
 * Time stands still between `tick` calls, so the provider fetches only when
 * the test lets it (first fetch, TTL refreshes, retries after a failure) and
 * every figure derived from this clock is exact: a set's age, a fetch's
 * duration, the number of fetches. A 40-minute outage takes a second.
 */

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Let queued promise jobs and I/O callbacks run; waits on no time. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export class ManualClock {
  private current: number;
  private nextId = 1;
  private timers: Timer[] = [];

  /**
   * @param afterTimer resolves when the work a fired timer started has
   *   finished (for example a fetch over real HTTP); awaited before each timer
   *   and at the end of `tick`. @default `settle`
   * @param start the time it reads until the first `tick`, ms since the epoch.
   */
  constructor(
    private readonly afterTimer: () => Promise<void> = settle,
    start = 1_700_000_000_000,
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

  /** Timers waiting to fire. */
  pending(): number {
    return this.timers.length;
  }

  /** Move time forward by `ms`, firing due timers in order and settling between them. */
  async tick(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await this.afterTimer();
      const due = this.timers
        .filter((t) => t.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = end;
    await this.afterTimer();
  }
}
