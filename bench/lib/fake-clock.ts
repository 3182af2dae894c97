import type { Clock } from '@argcheck/core';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/**
 * A manual clock for the core's `clock` option: time moves only when `tick`
 * is called, so a 40-minute outage takes a second of real time.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: Timer[] = [];

  constructor(start = 1_700_000_000_000) {
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

  /**
   * Advance time by `ms`, firing due timers in order and letting the promise
   * jobs they start settle between them.
   */
  async tick(ms: number): Promise<void> {
    const end = this.current + ms;
    for (;;) {
      await settle();
      const due = this.timers
        .filter((t) => t.at <= end)
        .sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = end;
    await settle();
  }
}

/** Let queued promise jobs and I/O callbacks run; does not wait on time. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
