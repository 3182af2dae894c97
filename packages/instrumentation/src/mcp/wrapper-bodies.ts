/**
 * The bodies of the wrappers `wrap-method.ts` installs. They run on every
 * call of a wrapped method, so per-call work is kept small: the forwarding
 * mark is a slot shared by our wrappers of one method name (not a Map entry
 * set and restored), and no function is made per call (a general wrapper's
 * `forward` is made once, with the wrapper).
 */

export type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Does the work of one call; `forward` sends arguments on to the wrapped method. */
export type Interceptor = (client: unknown, args: unknown[], forward: Method) => unknown;

/**
 * Looks at a call's first argument only and returns what to send in its
 * place: the same value, a replacement, or an `Answer` to return instead of
 * calling through. The other arguments go on exactly as the caller passed
 * them. The shape for `callTool(params, …)`, which runs on every tool call:
 * the wrapper forwards itself, so no `forward` function is made for a call.
 */
export interface FirstArgumentInterceptor {
  readonly first: (client: unknown, first: unknown) => unknown;
}

/** From a `FirstArgumentInterceptor`: the call's result, given without calling the method. */
export class Answer {
  constructor(readonly value: unknown) {}
}

/** The client whose call an outer wrapper of ours is forwarding right now, for one method name. */
export interface ForwardingSlot {
  client: unknown;
}

export interface WrapperState {
  active: boolean;
}

type Resolve = (self: unknown) => Method;

const NOBODY = Symbol('nobody');
const slots = new Map<string, ForwardingSlot>();

/** The slot of method `name`, shared by all our wrappers of it (prototype and instance ones). */
export function forwardingSlot(name: string): ForwardingSlot {
  let slot = slots.get(name);
  if (slot === undefined) {
    slot = { client: NOBODY };
    slots.set(name, slot);
  }
  return slot;
}

/** A body that hands the call to `intercept(client, args, forward)`. */
export function generalWrapper(
  state: WrapperState,
  slot: ForwardingSlot,
  resolve: Resolve,
  intercept: Interceptor,
): Method {
  const forward: Method = function (this: unknown, ...sent: unknown[]): unknown {
    const previous = slot.client;
    slot.client = this;
    try {
      return resolve(this).apply(this, sent);
    } finally {
      slot.client = previous;
    }
  };
  return function (this: unknown, ...args: unknown[]): unknown {
    if (!state.active || slot.client === this) return resolve(this).apply(this, args);
    return intercept(this, args, forward);
  };
}

/**
 * A body for a `FirstArgumentInterceptor`. The arguments go on as the caller
 * passed them, count included, with the first one replaced only if the
 * interceptor replaced it.
 */
export function firstArgumentWrapper(
  state: WrapperState,
  slot: ForwardingSlot,
  resolve: Resolve,
  first: FirstArgumentInterceptor['first'],
): Method {
  return function (this: unknown, ...args: unknown[]): unknown {
    const target = resolve(this);
    if (!state.active || slot.client === this) return target.apply(this, args);
    const given = args[0];
    const sent = first(this, given);
    if (sent !== given) {
      if (sent instanceof Answer) return sent.value;
      args[0] = sent;
    }
    const previous = slot.client;
    slot.client = this;
    try {
      return target.apply(this, args);
    } finally {
      slot.client = previous;
    }
  };
}
