import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { ValueSetEntry, ValueSetSource } from '../types.js';
import { withIdentity } from './source-identity.js';

/**
 * A value set vendored into the code. It never changes, so prefer a live
 * source; it is reported with `source="static"` so that a constant standing in
 * for the owner stays visible on dashboards.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` unless `values` is a non-empty array of strings.
 */
export function staticValueSet(values: readonly string[]): ValueSetSource {
  return listedValueSet('static', 'staticValueSet', values);
}

/**
 * The members of a string enum in a tool's input schema: what the
 * instrumentation derives from an MCP server's tool listing or a framework
 * tool's schema. Reported with `source="tool_schema"`: such a set is as
 * current as the listing it came from, and is told apart from a vendored
 * constant (`static`) and from a set an owner serves (`http`, `function`),
 * whose age says whether the owner still answers.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` unless `values` is a non-empty array of strings.
 */
export function toolSchemaValueSet(values: readonly string[]): ValueSetSource {
  return listedValueSet('tool_schema', 'toolSchemaValueSet', values);
}

function listedValueSet(
  kind: 'static' | 'tool_schema',
  factory: string,
  values: readonly string[],
): ValueSetSource {
  // Checked as `unknown`: JavaScript callers and JSON configs bypass the type.
  const given: unknown = values;
  if (!Array.isArray(given) || given.length === 0) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `${factory}(values) needs a non-empty array of strings`,
    );
  }
  const index = given.findIndex((v) => typeof v !== 'string');
  if (index !== -1) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `${factory}(values): element ${index} is a ${typeof given[index]}, not a string`,
    );
  }
  const entries: readonly ValueSetEntry[] = Object.freeze(
    values.map((value) => Object.freeze({ value })),
  );
  const source = { kind, load: () => Promise.resolve(entries) };
  return Object.freeze(withIdentity(source, values));
}
