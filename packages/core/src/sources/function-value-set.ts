import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { FetchContext, ValueSetSource } from '../types.js';
import { parseValueSetPayloadInTurns } from './parse-payload.js';

/**
 * A value set loaded by your own code (a database query, an SDK call). `load`
 * returns, or resolves to, anything `httpValueSet` accepts as a body: an array
 * of strings, of `{ value, aliases? }` entries, or `{ values: [...] }`. Honour
 * `ctx.signal` so that a timed-out load stops working.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` when `load` is not a function.
 */
export function functionValueSet(load: (ctx: FetchContext) => unknown): ValueSetSource {
  if (typeof load !== 'function') {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `functionValueSet(load) needs a function, got ${typeof load}`,
    );
  }
  return Object.freeze({
    kind: 'function',
    load: async (ctx: FetchContext) => parseValueSetPayloadInTurns(await load(ctx), ctx.signal),
  });
}
