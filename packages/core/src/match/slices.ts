/**
 * Long computations cut into slices, so that compiling (and parsing) a large
 * value set never holds the event loop for long.
 *
 * A computation is a generator that does its work in loops over ranges and
 * `yield`s between slices; `runWhole` drives it in one go (the synchronous
 * API), `runInTurns` gives the event loop a turn (`setImmediate`) between
 * slices. Both run the same code in the same order, so they produce the same
 * result and make the same callbacks. Slices are measured in units of work
 * counted by the loops (about one member through one step), never by reading a
 * clock: where the pauses fall depends only on the input, and no time needs to
 * pass for the work to finish, so fake-clock tests are unaffected. Work that
 * fits in one slice never pauses at all.
 */

/** A computation that may pause at each `yield`. */
export type Slices<T> = Generator<void, T, undefined>;

/**
 * Units of work per slice when the caller does not say. Each loop's weight is
 * set so that a slice stays well under the 50 ms stall bar even when a garbage
 * collection lands in the same turn (the measured figures are in
 * docs/decisions/0012-packed-matching.md).
 */
export const DEFAULT_SLICE_UNITS = 4_096;

/** The work left in the current slice, shared by every loop of a computation. */
export class Budget {
  left: number;

  /** @param size units per slice; `Infinity` never pauses. */
  constructor(readonly size: number) {
    this.left = size;
  }
}

/**
 * Run `body(from, to)` over `[0, count)` in ranges, charging `weight` units
 * per item to `budget` and pausing whenever the slice is spent and work
 * remains. The pause comes before the next range, never after the last one, so
 * the work of consecutive loops shares slices.
 */
export function* inSlices(
  budget: Budget,
  count: number,
  weight: number,
  body: (from: number, to: number) => void,
): Slices<void> {
  let from = 0;
  while (from < count) {
    if (budget.left <= 0) {
      yield;
      budget.left = budget.size;
    }
    const to = Math.min(count, from + Math.max(1, Math.ceil(budget.left / weight)));
    body(from, to);
    budget.left -= (to - from) * weight;
    from = to;
  }
}

/** Run a computation to its end now. */
export function runWhole<T>(work: Slices<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/**
 * Run a computation one slice per event-loop turn. The first slice runs before
 * this returns; the promise settles with the result or the error thrown. When
 * `signal` aborts, the pending slice is cancelled (no callback is left queued)
 * and the promise rejects with the signal's reason.
 */
export function runInTurns<T>(work: Slices<T>, signal?: AbortSignal): Promise<T> {
  // Whatever the caller aborted with (an AbortError DOMException by default).
  const reason = (): Error => signal?.reason as Error;
  return new Promise<T>((resolve, reject) => {
    let pending: ReturnType<typeof setImmediate> | undefined;
    const onAbort = (): void => {
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
      reject(reason());
    };
    const step = (): void => {
      pending = undefined;
      let next: IteratorResult<void, T>;
      try {
        next = work.next();
      } catch (error) {
        signal?.removeEventListener('abort', onAbort);
        // Passed on unchanged, as a synchronous caller would have seen it.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
        return;
      }
      if (next.done) {
        signal?.removeEventListener('abort', onAbort);
        resolve(next.value);
      } else if (!signal?.aborted) {
        // Aborted during the slice (by a callback it made): already rejected.
        pending = setImmediate(step);
      }
    };
    if (signal?.aborted) return reject(reason());
    signal?.addEventListener('abort', onAbort, { once: true });
    step();
  });
}
