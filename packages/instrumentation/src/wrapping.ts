/**
 * How argcheck puts its wrappers on methods and takes them off again.
 * Prototypes go through `InstrumentationBase._wrap` / `_unwrap` (shimmer);
 * two cases need more than those, and docs/decisions/0013-method-wrapping.md
 * says why:
 *
 * - Another instrumentation may wrap the same method after us. `_unwrap`
 *   would take *its* wrapper off (it restores what the top wrapper replaced),
 *   so when ours is not on top it is switched off where it sits instead.
 * - An instance (`inst.instrumentMcpClient(client)`) gets its own wrapper that
 *   reads the method from its prototype on every call, so an instrumentation
 *   that patches the prototype later still sees the call; taking it off
 *   deletes the own property instead of leaving a copy of the prototype's.
 */

export type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Our wrapper works while `active`; switched off, it must pass calls straight on. */
export interface Switch {
  active: boolean;
}

/** A wrapper's switch and the object whose method it wraps. */
interface Mark extends Switch {
  readonly owner: object;
}

/** Makes the wrapper of a method from the method it replaces. */
export type Patch = (original: Method, on: Switch) => Method;

/** `InstrumentationBase._wrap` and `_unwrap`. */
export interface Shimmer {
  wrap(target: object, name: string, wrapper: (original: Method) => Method): unknown;
  unwrap(target: object, name: string): void;
}

type Target = Record<string, unknown>;

const OURS = Symbol.for('argcheck.wrapper');

function hidden(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

function markOf(fn: unknown): Mark | undefined {
  return typeof fn === 'function' ? (fn as { [OURS]?: Mark })[OURS] : undefined;
}

/**
 * Switch off our wrappers of `owner`'s method down the `__original` chain
 * from `fn`. Ours of another object there (the prototype's, beneath an
 * instance's) stay on. Returns whether `fn` itself is one of them.
 */
function switchOff(fn: unknown, owner: object): boolean {
  for (let f = fn, depth = 0; typeof f === 'function' && depth < 64; depth++) {
    const mark = markOf(f);
    if (mark?.owner === owner) mark.active = false;
    f = (f as { __original?: unknown }).__original;
  }
  return markOf(fn)?.owner === owner;
}

/** Wrap `target[name]` (a prototype's method); an earlier wrapper of ours there is retired first. */
export function wrapMethod(shimmer: Shimmer, target: object, name: string, patch: Patch): void {
  if (typeof (target as Target)[name] !== 'function') return;
  unwrapMethod(shimmer, target, name);
  shimmer.wrap(target, name, (original) => {
    const mark: Mark = { active: true, owner: target };
    const wrapper = patch(original, mark);
    hidden(wrapper, OURS, mark);
    return wrapper;
  });
}

/** Take our wrapper off `target[name]` if it is on top; switch it off if it is beneath another's. */
export function unwrapMethod(shimmer: Shimmer, target: object, name: string): void {
  if (!Object.hasOwn(target, name)) return;
  if (switchOff((target as Target)[name], target)) shimmer.unwrap(target, name);
}

/** Wrap one object's own copy of `name`; see the file comment. */
export function wrapInstanceMethod(target: object, name: string, patch: Patch): boolean {
  const object = target as Target;
  const current = object[name];
  if (typeof current !== 'function') return false;
  // Our earlier instance wrapper goes; one beneath someone else's is switched off.
  if (Object.hasOwn(object, name) && switchOff(current, object)) {
    (current as { __unwrap?: () => void }).__unwrap?.();
  }
  const own = Object.hasOwn(object, name) ? object[name] : undefined;
  const proto = Object.getPrototypeOf(object) as Target | null;
  const original: Method =
    typeof own === 'function'
      ? (own as Method)
      : function inherited(this: unknown): unknown {
          const from = (this === object ? proto : Object.getPrototypeOf(this)) as Target;
          // eslint-disable-next-line prefer-rest-params
          return Reflect.apply(from[name] as Method, this, arguments);
        };
  const mark: Mark = { active: true, owner: object };
  const wrapper = patch(original, mark);
  hidden(wrapper, OURS, mark);
  hidden(wrapper, '__original', original);
  hidden(wrapper, '__wrapped', true);
  hidden(wrapper, '__unwrap', () => {
    mark.active = false;
    if (object[name] !== wrapper) return;
    if (typeof own === 'function') hidden(object, name, own);
    else delete object[name];
  });
  hidden(object, name, wrapper);
  return true;
}
