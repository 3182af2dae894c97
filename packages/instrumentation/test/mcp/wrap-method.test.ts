import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import type { Interceptor } from '../../src/mcp/wrap-method.js';
import { makeClass } from './helpers/stand-in-client.js';
import {
  unwrapMethod,
  wrapInstanceMethod,
  wrapPrototypeMethod,
} from '../../src/mcp/wrap-method.js';

/** Counts the calls it intercepts, then forwards them unchanged. */
function counting(): { intercept: Interceptor; seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    intercept: (client, args, forward) => {
      seen.push(args[0]);
      return forward.apply(client, args);
    },
  };
}

/** What shimmer (and so most OpenTelemetry instrumentations) would leave on a prototype. */
function foreignWrap(target: Record<string, unknown>, name: string, log: string[]): void {
  const original = target[name] as (...a: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...a: unknown[]) {
    log.push('foreign');
    return original.apply(this, a);
  };
  Object.assign(wrapped, { __original: original, __unwrap: () => undefined, __wrapped: true });
  target[name] = wrapped;
}

describe('wrapPrototypeMethod / wrapInstanceMethod', () => {
  it('wraps shimmer-style so isWrapped() sees it, and unwraps to the original', () => {
    const { proto } = makeClass();
    const original = proto.callTool;
    wrapPrototypeMethod(proto, 'callTool', counting().intercept);
    expect(isWrapped(proto.callTool)).to.equal(true);
    expect((proto.callTool as { __original: unknown }).__original).to.equal(original);
    unwrapMethod(proto, 'callTool');
    expect(proto.callTool).to.equal(original);
  });

  it('replaces its own earlier wrapper instead of stacking', () => {
    const { Thing, proto, calls } = makeClass();
    const first = counting();
    const second = counting();
    wrapPrototypeMethod(proto, 'callTool', first.intercept);
    wrapPrototypeMethod(proto, 'callTool', second.intercept);
    new Thing().callTool('p');
    expect([first.seen, second.seen, calls]).to.deep.equal([[], ['p'], [['p']]]);
  });

  it('leaves a foreign wrapper on top in place and switches itself off under it', () => {
    const { Thing, proto, calls } = makeClass();
    const ours = counting();
    const log: string[] = [];
    wrapPrototypeMethod(proto, 'callTool', ours.intercept);
    foreignWrap(proto, 'callTool', log);
    unwrapMethod(proto, 'callTool');
    new Thing().callTool('p');
    expect([ours.seen, log, calls]).to.deep.equal([[], ['foreign'], [['p']]]);
  });

  it('intercepts once when prototype and instance are both wrapped, in any order', () => {
    const { Thing, proto, calls } = makeClass();
    const a = counting();
    const b = counting();
    const early = new Thing();
    wrapInstanceMethod(early as unknown as Record<string, unknown>, 'callTool', a.intercept);
    wrapPrototypeMethod(proto, 'callTool', b.intercept);
    wrapInstanceMethod(early as unknown as Record<string, unknown>, 'callTool', a.intercept);
    early.callTool('x');
    new Thing().callTool('y');
    expect([a.seen, b.seen, calls]).to.deep.equal([['x'], ['y'], [['x'], ['y']]]);
  });

  it('instance wrappers follow the prototype, and unwrapping deletes the own property', () => {
    const { Thing, proto } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const inst = counting();
    wrapInstanceMethod(thing, 'callTool', inst.intercept);
    const later = counting();
    wrapPrototypeMethod(proto, 'callTool', later.intercept);
    (thing.callTool as (p: string) => void).call(thing, 'q');
    unwrapMethod(thing, 'callTool');
    expect(Object.hasOwn(thing, 'callTool')).to.equal(false);
    (thing.callTool as (p: string) => void).call(thing, 'r');
    expect([inst.seen, later.seen]).to.deep.equal([['q'], ['r']]);
  });

  it('keeps a method the instance had of its own, and restores it on unwrap', () => {
    const { Thing } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const own = () => 'own';
    thing.callTool = own;
    wrapInstanceMethod(thing, 'callTool', counting().intercept);
    expect((thing.callTool as () => string)()).to.equal('own');
    unwrapMethod(thing, 'callTool');
    expect(thing.callTool).to.equal(own);
  });

  it('does nothing for a missing method', () => {
    expect(wrapPrototypeMethod({}, 'callTool', counting().intercept)).to.equal(false);
    expect(wrapInstanceMethod({}, 'callTool', counting().intercept)).to.equal(false);
  });
});
