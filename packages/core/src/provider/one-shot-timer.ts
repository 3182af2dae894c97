import type { Clock } from '../types.js';

/**
 * One pending timer at most. Tracks whether it is armed separately from the
 * handle because an injected clock may use any value, `undefined` included, as
 * a handle.
 */
export class OneShotTimer {
  private handle: unknown;
  private armed = false;

  constructor(private readonly clock: Clock) {}

  /** Replace any pending run with `fn` after `ms`. */
  start(ms: number, fn: () => void): void {
    this.stop();
    this.armed = true;
    this.handle = this.clock.setTimeout(() => {
      this.armed = false;
      fn();
    }, ms);
  }

  stop(): void {
    if (!this.armed) return;
    this.armed = false;
    this.clock.clearTimeout(this.handle);
  }
}
