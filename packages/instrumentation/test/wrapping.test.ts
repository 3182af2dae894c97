import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { unwrapMethod, wrapInstanceMethod, wrapMethod } from '../src/wrapping.js';
import type { Patch } from '../src/wrapping.js';
import { makeClass } from './mcp/helpers/stand-in-client.js';
import { shimmer } from './helpers/shimmer.js';

/** A patch that records the first argument of every call it works on, then forwards it. */
function counting(): { patch: Patch; seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    patch: (original, on) =>
      function (this: unknown, ...args: unknown[]): unknown {
        if (on.active) seen.push(args[0]);
        return original.apply(this, args);
      },
  };
}

/** What shimmer (and so most OpenTelemetry instrumentations) would leave on a method. */
function foreignWrap(target: Record<string, unknown>, name: string, log: string[]): void {
  const original = target[name] as (...a: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...a: unknown[]) {
    log.push('foreign');
    return original.apply(this, a);
  };
  Object.assign(wrapped, { __original: original, __unwrap: () => undefined, __wrapped: true });
  target[name] = wrapped;
}

type Call = (...args: unknown[]) => unknown;

describe('wrapMethod / wrapInstanceMethod', () => {
  const s = shimmer();

  it('wraps through _wrap so isWrapped() sees it, and unwraps to the original', () => {
    const { proto } = makeClass();
    const original = proto.callTool;
    wrapMethod(s, proto, 'callTool', counting().patch);
    expect(isWrapped(proto.callTool)).to.equal(true);
    expect((proto.callTool as { __original: unknown }).__original).to.equal(original);
    unwrapMethod(s, proto, 'callTool');
    expect(proto.callTool).to.equal(original);
  });

  it('replaces its own earlier wrapper instead of stacking', () => {
    const { Thing, proto, calls } = makeClass();
    const first = counting();
    const second = counting();
    wrapMethod(s, proto, 'callTool', first.patch);
    wrapMethod(s, proto, 'callTool', second.patch);
    new Thing().callTool('p');
    expect([first.seen, second.seen, calls]).to.deep.equal([[], ['p'], [['p']]]);
  });

  it('leaves a foreign wrapper on top in place and switches itself off under it', () => {
    const { Thing, proto, calls } = makeClass();
    const ours = counting();
    const log: string[] = [];
    wrapMethod(s, proto, 'callTool', ours.patch);
    foreignWrap(proto, 'callTool', log);
    unwrapMethod(s, proto, 'callTool');
    new Thing().callTool('p');
    expect([ours.seen, log, calls]).to.deep.equal([[], ['foreign'], [['p']]]);
  });

  it('never switches off the prototype wrapper when wrapping an instance another tracer wrapped', () => {
    const { Thing, proto } = makeClass();
    const onProto = counting();
    const onInstance = counting();
    const log: string[] = [];
    wrapMethod(s, proto, 'callTool', onProto.patch);
    const thing = new Thing() as unknown as Record<string, unknown>;
    // A tracer that wraps the instance: its original is our prototype wrapper.
    foreignWrap(thing, 'callTool', log);
    wrapInstanceMethod(thing, 'callTool', onInstance.patch);
    wrapInstanceMethod(thing, 'callTool', onInstance.patch);
    new Thing().callTool('b');
    (thing.callTool as Call).call(thing, 'a');
    expect([onInstance.seen, onProto.seen, log]).to.deep.equal([['a'], ['b', 'a'], ['foreign']]);
  });

  it('instance wrappers follow the prototype, and unwrapping deletes the own property', () => {
    const { Thing, proto } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const inst = counting();
    wrapInstanceMethod(thing, 'callTool', inst.patch);
    const later = counting();
    wrapMethod(s, proto, 'callTool', later.patch);
    (thing.callTool as Call).call(thing, 'q');
    (thing.callTool as { __unwrap: () => void }).__unwrap();
    expect(Object.hasOwn(thing, 'callTool')).to.equal(false);
    (thing.callTool as Call).call(thing, 'r');
    expect([inst.seen, later.seen]).to.deep.equal([['q'], ['q', 'r']]);
  });

  it('keeps a method the instance had of its own, and restores it on unwrap', () => {
    const { Thing } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const own = () => 'own';
    thing.callTool = own;
    wrapInstanceMethod(thing, 'callTool', counting().patch);
    expect((thing.callTool as () => string)()).to.equal('own');
    (thing.callTool as { __unwrap: () => void }).__unwrap();
    expect(thing.callTool).to.equal(own);
  });

  it('follow the prototype of the object they are called on, also when borrowed', () => {
    const first = makeClass();
    const second = makeClass();
    const thing = new first.Thing() as unknown as Record<string, unknown>;
    wrapInstanceMethod(thing, 'callTool', counting().patch);
    const other = new second.Thing();
    (thing.callTool as Call).call(other, 'borrowed');
    first.proto.callTool = function (...args: unknown[]): string {
      first.calls.push(['patched', ...args]);
      return 'sent';
    };
    (thing.callTool as Call)('own');
    expect([first.calls, second.calls]).to.deep.equal([[['patched', 'own']], [['borrowed']]]);
  });

  it('does nothing for a missing method', () => {
    const target = {};
    wrapMethod(s, target, 'callTool', counting().patch);
    expect(target).to.deep.equal({});
    expect(wrapInstanceMethod({}, 'callTool', counting().patch)).to.equal(false);
  });
});
