/**
 * How argcheck puts its wrappers on methods and takes them off again, per
 * instrumentation instance (docs/decisions/0013-method-wrapping.md):
 *
 * - Wrappers are shimmer-compatible (`__original`, `__unwrap`, `__wrapped`),
 *   so `isWrapped()` and other instrumentations see them, but are installed
 *   without `InstrumentationBase._wrap`, which first takes off whatever
 *   wrapper is on the method: two instances on one prototype would switch
 *   each other off.
 * - Each wrapper is marked with its owner (the instance) and the object it
 *   wraps. Wrapping again where an owner's wrapper is already in the chain
 *   switches that one back on instead of stacking another.
 * - Unwrapping switches the owner's wrapper off where it sits (it then
 *   passes calls straight on) and takes it off only when it is on top, so a
 *   wrapper put on after it (another instance's, another instrumentation's)
 *   keeps working.
 * - An instance (`inst.instrumentMcpClient(client)`) gets its own wrapper
 *   that reads the method from its prototype on every call, so a wrapper put
 *   on the prototype later still sees the call; taking it off deletes the own
 *   property instead of leaving a copy of the prototype's.
 */
import { types } from 'node:util';

export type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Our wrapper works while `active`; switched off, it must pass calls straight on. */
export interface Switch {
  active: boolean;
}

/** Makes the wrapper of a method from the method it replaces. */
export type Patch = (original: Method, on: Switch) => Method;

export interface Wrapping {
  /** Wrap `target[name]` (a prototype's method, a module's export). */
  wrap(target: object, name: string, patch: Patch): void;
  /** Switch this owner's wrapper of `target[name]` off; take it off when it is on top. */
  unwrap(target: object, name: string): void;
  /** Wrap one object's own copy of `name`; false when it has no such method. */
  wrapInstance(target: object, name: string, patch: Patch): boolean;
}

/** A wrapper's switch, its owner and the object whose method it wraps. */
interface Mark extends Switch {
  readonly owner: object;
  readonly target: object;
}

type Target = Record<string, unknown>;

const OURS = Symbol.for('argcheck.wrapper');
/** Deeper than any real chain of wrappers; bounds the walk on a cyclic `__original`. */
const MAX_CHAIN = 64;

function hidden(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/** Replace `target[name]`, keeping its enumerability, as shimmer does; a module namespace proxy takes a value only. */
function define(target: Target, name: string, value: unknown): void {
  if (types.isProxy(target)) {
    Object.defineProperty(target, name, { value });
    return;
  }
  const enumerable =
    Boolean(target[name]) && Object.prototype.propertyIsEnumerable.call(target, name);
  Object.defineProperty(target, name, { configurable: true, enumerable, writable: true, value });
}

function markOf(fn: unknown): Mark | undefined {
  return typeof fn === 'function' ? (fn as { [OURS]?: Mark })[OURS] : undefined;
}

/** The owner's wrapper of `target`'s method in the chain from `fn`, if any. */
function findOwn(fn: unknown, owner: object, target: object): Mark | undefined {
  for (let f = fn, depth = 0; typeof f === 'function' && depth < MAX_CHAIN; depth++) {
    const mark = markOf(f);
    if (mark?.owner === owner && mark.target === target) return mark;
    f = (f as { __original?: unknown }).__original;
  }
  return undefined;
}

function install(mark: Mark, patch: Patch, original: Method): Method {
  const wrapper = patch(original, mark);
  hidden(wrapper, OURS, mark);
  hidden(wrapper, '__original', original);
  hidden(wrapper, '__wrapped', true);
  return wrapper;
}

export function createWrapping(owner: object): Wrapping {
  return {
    wrap(target, name, patch) {
      const object = target as Target;
      const current = object[name];
      if (typeof current !== 'function') return;
      const existing = findOwn(current, owner, target);
      if (existing !== undefined) {
        existing.active = true;
        return;
      }
      const mark: Mark = { active: true, owner, target };
      const wrapper = install(mark, patch, current as Method);
      hidden(wrapper, '__unwrap', () => {
        if (object[name] === wrapper) define(object, name, current);
      });
      define(object, name, wrapper);
    },

    unwrap(target, name) {
      const object = target as Target;
      if (!Object.hasOwn(object, name)) return;
      const top = object[name];
      const mark = findOwn(top, owner, target);
      if (mark === undefined) return;
      mark.active = false;
      // Off the top go ours and any switched-off argcheck wrapper beneath it
      // (another instance's, disabled while ours was above it); an owner
      // enabled again wraps anew.
      let current = top;
      for (let depth = 0; depth < MAX_CHAIN; depth++) {
        const below = markOf(current);
        if (below === undefined || below.active || below.target !== target) break;
        current = (current as { __original?: unknown }).__original;
      }
      if (current !== top) define(object, name, current);
    },

    wrapInstance(target, name, patch) {
      const object = target as Target;
      const current = object[name];
      if (typeof current !== 'function') return false;
      if (Object.hasOwn(object, name)) {
        const existing = findOwn(current, owner, target);
        if (existing !== undefined) {
          existing.active = true;
          return true;
        }
      }
      const own = Object.hasOwn(object, name) ? current : undefined;
      const proto = Object.getPrototypeOf(object) as Target | null;
      const original: Method =
        typeof own === 'function'
          ? (own as Method)
          : function inherited(this: unknown): unknown {
              const from = (this === object ? proto : Object.getPrototypeOf(this)) as Target;
              const method = from[name] as Method;
              // The usual call of one or two arguments goes on without a list made of them.
              /* eslint-disable prefer-rest-params */
              const count = arguments.length;
              if (count === 1) return method.call(this, arguments[0]);
              if (count === 2) return method.call(this, arguments[0], arguments[1]);
              return Reflect.apply(method, this, arguments);
              /* eslint-enable prefer-rest-params */
            };
      const mark: Mark = { active: true, owner, target };
      const wrapper = install(mark, patch, original);
      hidden(wrapper, '__unwrap', () => {
        mark.active = false;
        if (object[name] !== wrapper) return;
        if (typeof own === 'function') hidden(object, name, own);
        else delete object[name];
      });
      hidden(object, name, wrapper);
      return true;
    },
  };
}
