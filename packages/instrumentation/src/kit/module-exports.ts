/**
 * Where a module's exports are wrapped. Under the ESM loader hook a module is
 * a Proxy whose exports can be set; an ESM module loaded by `require()`
 * (Node 22+) is a module namespace whose exports cannot be redefined, so a
 * plain copy is wrapped and handed to the application in its place.
 */
import { types } from 'node:util';
import type { Target } from './values.js';

const copies = new WeakMap<object, Target>();

/** The object to wrap exports on: `moduleExports`, or its copy for a `require()`d namespace. */
export function patchableExports(moduleExports: Target): Target {
  if (!types.isModuleNamespaceObject(moduleExports) || types.isProxy(moduleExports)) {
    return moduleExports;
  }
  let copy = copies.get(moduleExports);
  if (copy === undefined) {
    copy = Object.defineProperty({ ...moduleExports }, Symbol.toStringTag, { value: 'Module' });
    copies.set(moduleExports, copy);
  }
  return copy;
}

/** The object `patchableExports` gave for `moduleExports`, to unwrap. */
export function patchedExports(moduleExports: Target): Target {
  return copies.get(moduleExports) ?? moduleExports;
}
