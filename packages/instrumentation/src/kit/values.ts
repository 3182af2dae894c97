/** Reading values that come from user code and frameworks, whose shapes are not to be trusted. */

export type Target = Record<PropertyKey, unknown>;

/** An object (arrays included) whose properties may be read. */
export function isObject(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null;
}

/** An object or a function: anything that carries properties (a class, a module namespace). */
export function hasProperties(value: unknown): value is Target {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** An object that is not an array: a record of named properties. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
