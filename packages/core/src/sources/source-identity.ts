/**
 * When two sources stand for the same list: the provider that replaces
 * another (`ValueSetProviderOptions.replaces`) keeps what a set held only if
 * its source did not change. A source is the same as itself; two made by this
 * package's factories are the same when made from equal arguments (the same
 * members for `staticValueSet`; the same URL, headers, `maxBytes` and `select`
 * function for `httpValueSet`), so a configuration built again from the same
 * settings keeps its sets. A hand-written source, or a `functionValueSet`, is
 * the same only as itself: its code is not comparable.
 */
import type { ValueSetSource } from '../types.js';

/** Not part of the public API: a property only this package's sources have. */
export const IDENTITY = Symbol('argcheck.source-identity');

/** Attach `parts` (compared with `Object.is`, in order) as `source`'s identity. */
export function withIdentity<T extends object>(source: T, parts: readonly unknown[]): T {
  Object.defineProperty(source, IDENTITY, { value: Object.freeze([...parts]) });
  return source;
}

export function sameSource(a: ValueSetSource, b: ValueSetSource): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  const left = (a as { [IDENTITY]?: readonly unknown[] })[IDENTITY];
  const right = (b as { [IDENTITY]?: readonly unknown[] })[IDENTITY];
  if (left === undefined || right === undefined || left.length !== right.length) return false;
  return left.every((part, i) => Object.is(part, right[i]));
}
