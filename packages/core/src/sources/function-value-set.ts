import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { FetchContext, LoadedValueSet, ValueSetEntry, ValueSetSource } from '../types.js';
import { isUnchanged, versionOf } from './collect.js';
import { parseValueSetPayloadInTurns } from './parse-payload.js';

/**
 * A value set loaded by your own code (a database query, an SDK call). `load`
 * returns, or resolves to, anything `httpValueSet` accepts as a body: an array
 * of strings, of `{ value, aliases? }` entries, or `{ values: [...] }`. Honour
 * `ctx.signal` so that a timed-out load stops working.
 *
 * To spare the provider a recompile when nothing changed, return
 * `{ values, version }` (a string: a revision, an update time), and when
 * `ctx.version` is still current, `{ unchanged: true }`.
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
    load: async (ctx: FetchContext): Promise<readonly ValueSetEntry[] | LoadedValueSet> => {
      const loaded = await load(ctx);
      if (isUnchanged(loaded)) return { unchanged: true };
      const values = await parseValueSetPayloadInTurns(loaded, ctx.signal);
      const version = versionOf(loaded);
      return version === undefined ? values : { values, version };
    },
  });
}
