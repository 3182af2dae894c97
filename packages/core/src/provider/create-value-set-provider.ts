import { compileCollectedAsync } from '../match/compile-value-set.js';
import type { ValueSetProvider, ValueSetProviderOptions } from '../types.js';
import { createProvider } from './create-provider.js';

/**
 * Serve named value sets fetched live from their owners.
 *
 * - Every set's first fetch starts as the provider is made (with `lazy`: at
 *   the set's first `get`, `ready` or `refresh`); until it settles the set is
 *   `unavailable: cold`. `get(name)` never waits and never reads the clock: it
 *   returns the lookup prepared for the set's current state.
 * - With `replaces`, a set whose source is the same as before continues from
 *   what the replaced provider held (members, age, state) instead of cold.
 * - At `ttlMs` after a good fetch the set turns `stale` and a refresh starts;
 *   `maxStaleMs` later, without a good refresh, it is `unavailable: expired`
 *   (an `expired` event). A set keeps refreshing on its own once fetched.
 * - One attempt per set at a time. An attempt slower than `fetchTimeoutMs` is
 *   aborted through `ctx.signal` and counted as `timeout`; a source that ignores
 *   its signal is no longer waited on, and its late answer is discarded.
 * - A list is read into packed arrays as it loads (an HTTP body as it
 *   arrives; `sources/collect.ts`), then compiled in slices of a few
 *   milliseconds with a turn of the event loop between them
 *   (`compileCollectedAsync`), so a refresh of 1,000,000 members never stalls
 *   the checks running beside it, nor leaves the garbage collector a million
 *   strings to move. Meanwhile
 *   `get()` serves what it served before (or `cold`), the attempt is still the
 *   one in flight (`refresh()` joins it, `ready()` waits for the publish), and
 *   `close()` abandons it. `fetchTimeoutMs` bounds the load (request, body,
 *   parse), not the compile: that is the provider's own work, not the owner's,
 *   and `durationMs` in events is the load's too.
 * - A failed attempt is retried with backoff (see `retryDelayMs`: 1 s doubling,
 *   capped at the smaller of `ttlMs` and 60 s, equal jitter from `random`).
 * - A payload that is malformed, too large, empty, or smaller than
 *   `1 - maxShrinkRatio` of the set being served is refused, the served set
 *   kept, and the attempt counted as failed. The shrink guard compares with
 *   the largest set served since the last shrink it let through, so a run of
 *   refreshes that each lose a little cannot walk a set down; a shrink
 *   refused three times in a row, over at least a TTL, is the owner's real
 *   set and is accepted.
 *   Once a set has expired, the next well-formed, non-empty list is
 *   accepted, as it would be after a restart.
 *
 * Every attempt publishes exactly one `fetch_succeeded` or `fetch_failed`
 * (count those to count attempts). A refused payload is explained by a
 * `refresh_rejected` just before its `fetch_failed`; a published set's
 * `normalisation_collision` events follow its `fetch_succeeded`.
 *
 * After `close()`, no timer or fetch remains, and a set still held is served
 * as `stale`.
 *
 * @throws ArgcheckConfigError `INVALID_OPTION` for an option of the wrong type or
 *   out of range; `INVALID_SOURCE` for a source without `load` or with an unknown `kind`.
 */
export function createValueSetProvider(options: ValueSetProviderOptions): ValueSetProvider {
  return createProvider(options, compileCollectedAsync);
}
