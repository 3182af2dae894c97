/**
 * Method wrapping for MCP clients, shaped like shimmer's (`__original`,
 * `__unwrap`, `__wrapped`, so `isWrapped()` from
 * `@opentelemetry/instrumentation` recognises it) with two differences:
 *
 * - Only our own wrappers are ever replaced. Another instrumentation's wrapper
 *   (an MCP tracing one, say) stays in the chain.
 * - A wrapper that cannot be removed because something wrapped on top of it is
 *   switched off instead, so `disable()` always takes effect.
 *
 * A client can be reached twice: through its patched prototype and through
 * `instrumentClient`. Only the outermost of our wrappers works on a call;
 * while it forwards, inner ones see the method's forwarding slot hold the same
 * client and step aside. Forwarding is synchronous up to the first `await`
 * inside the SDK, so the slot never leaks to another call.
 */
import { firstArgumentWrapper, forwardingSlot, generalWrapper } from './wrapper-bodies.js';
import type { FirstArgumentInterceptor, Interceptor, Method } from './wrapper-bodies.js';

export { Answer } from './wrapper-bodies.js';
export type { FirstArgumentInterceptor, Interceptor } from './wrapper-bodies.js';

const ARGCHECK_WRAPPER = Symbol.for('argcheck.mcp.wrapper');

interface Wrapper extends Method {
  [ARGCHECK_WRAPPER]: { active: boolean };
  __original: Method;
  __unwrap: () => void;
  __wrapped: true;
}

/** Our wrappers by target and method, found even when another wrapper sits on top. */
const installed = new WeakMap<object, Map<string, Wrapper>>();

function remember(target: object, name: string, wrapper: Wrapper): void {
  const byName = installed.get(target) ?? new Map<string, Wrapper>();
  byName.set(name, wrapper);
  installed.set(target, byName);
}

/** Switch our wrapper off wherever it sits; take it out if it is on top. */
function retire(target: Record<string, unknown>, name: string): void {
  const wrapper = installed.get(target)?.get(name);
  if (wrapper === undefined) return;
  installed.get(target)?.delete(name);
  wrapper.__unwrap();
}

function hidden(target: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/**
 * The wrapper function for `name`. `resolve` finds what to call: a fixed
 * original for a prototype, the prototype's current method for an instance.
 */
function makeWrapper(
  name: string,
  resolve: (self: unknown) => Method,
  intercept: Interceptor | FirstArgumentInterceptor,
): Wrapper {
  const state = { active: true };
  const slot = forwardingSlot(name);
  const wrapper = (
    typeof intercept === 'function'
      ? generalWrapper(state, slot, resolve, intercept)
      : firstArgumentWrapper(state, slot, resolve, intercept.first)
  ) as Wrapper;
  hidden(wrapper, ARGCHECK_WRAPPER, state);
  hidden(wrapper, '__wrapped', true);
  return wrapper;
}

/** Replace `target[name]` with an intercepting wrapper; our earlier wrapper there is replaced. */
export function wrapPrototypeMethod(
  target: Record<string, unknown>,
  name: string,
  intercept: Interceptor | FirstArgumentInterceptor,
): boolean {
  retire(target, name);
  const original = target[name];
  if (typeof original !== 'function') return false;
  const fixed = original as Method;
  const wrapper = makeWrapper(name, () => fixed, intercept);
  hidden(wrapper, '__original', fixed);
  hidden(wrapper, '__unwrap', () => {
    wrapper[ARGCHECK_WRAPPER].active = false;
    if (target[name] === wrapper) hidden(target, name, fixed);
  });
  hidden(target, name, wrapper);
  remember(target, name, wrapper);
  return true;
}

/**
 * Wrap one object's method as an own property. Unless the object had its own
 * method already, each call goes to whatever its prototype holds at that
 * moment, so enabling or disabling prototype patches later stays coherent.
 * (The prototype object itself is taken as it is at wrapping time; MCP
 * clients do not change theirs.)
 */
export function wrapInstanceMethod(
  target: Record<string, unknown>,
  name: string,
  intercept: Interceptor | FirstArgumentInterceptor,
): boolean {
  retire(target, name);
  const own = Object.hasOwn(target, name) ? target[name] : undefined;
  // The object's prototype is read once, here: `Object.getPrototypeOf` on every
  // call cost ~30-40 ns with cold caches, about half of this wrapper. The
  // method itself is still read on each call; a call on another `this` (the
  // method borrowed onto a different object) reads that object's prototype.
  const proto = Object.getPrototypeOf(target) as unknown;
  const inherited = (self: unknown): Method => {
    const from = (self === target ? proto : Object.getPrototypeOf(self)) as Record<string, unknown>;
    return from[name] as Method;
  };
  if (typeof own === 'function') {
    const fixed = own as Method;
    return installOwn(
      target,
      name,
      makeWrapper(name, () => fixed, intercept),
      fixed,
      true,
    );
  }
  if (typeof target[name] !== 'function') return false;
  return installOwn(
    target,
    name,
    makeWrapper(name, inherited, intercept),
    inherited(target),
    false,
  );
}

function installOwn(
  target: Record<string, unknown>,
  name: string,
  wrapper: Wrapper,
  original: Method,
  hadOwn: boolean,
): boolean {
  hidden(wrapper, '__original', original);
  hidden(wrapper, '__unwrap', () => {
    wrapper[ARGCHECK_WRAPPER].active = false;
    if (target[name] !== wrapper) return;
    // Deleting (not copying the inherited method in) keeps later prototype patches visible.
    if (hadOwn) hidden(target, name, original);
    else delete target[name];
  });
  hidden(target, name, wrapper);
  remember(target, name, wrapper);
  return true;
}

/** Remove (or, under someone else's wrapper, switch off) our wrapper of `target[name]`. */
export function unwrapMethod(target: Record<string, unknown>, name: string): void {
  retire(target, name);
}
