import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { ValueSetEntry, ValueSetSource } from '../types.js';

/**
 * A value set vendored into the code. It never changes, so prefer a live
 * source; it is reported with `source="static"` so that a constant standing in
 * for the owner stays visible on dashboards.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` unless `values` is a non-empty array of strings.
 */
export function staticValueSet(values: readonly string[]): ValueSetSource {
  // Checked as `unknown`: JavaScript callers and JSON configs bypass the type.
  const given: unknown = values;
  if (!Array.isArray(given) || given.length === 0) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      'staticValueSet(values) needs a non-empty array of strings',
    );
  }
  const index = given.findIndex((v) => typeof v !== 'string');
  if (index !== -1) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `staticValueSet(values): element ${index} is a ${typeof given[index]}, not a string`,
    );
  }
  const entries: readonly ValueSetEntry[] = Object.freeze(
    values.map((value) => Object.freeze({ value })),
  );
  return Object.freeze({ kind: 'static', load: () => Promise.resolve(entries) });
}
