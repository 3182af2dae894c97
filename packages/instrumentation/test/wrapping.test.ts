import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { createWrapping } from '../src/kit/wrapping.js';
import type { Patch } from '../src/kit/wrapping.js';
import { makeClass } from './mcp/helpers/stand-in-client.js';

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

describe('createWrapping: wrappers per instrumentation', () => {
  it('is shimmer-compatible, so isWrapped() sees it, and unwraps to the original', () => {
    const w = createWrapping({});
    const { proto } = makeClass();
    const original = proto.callTool;
    w.wrap(proto, 'callTool', counting().patch);
    expect(isWrapped(proto.callTool)).to.equal(true);
    expect((proto.callTool as { __original: unknown }).__original).to.equal(original);
    w.unwrap(proto, 'callTool');
    expect(proto.callTool).to.equal(original);
  });

  it('switches its own wrapper back on instead of stacking another', () => {
    const w = createWrapping({});
    const { Thing, proto, calls } = makeClass();
    const first = counting();
    const second = counting();
    w.wrap(proto, 'callTool', first.patch);
    const wrapper = proto.callTool;
    w.wrap(proto, 'callTool', second.patch);
    expect(proto.callTool).to.equal(wrapper);
    new Thing().callTool('p');
    expect([first.seen, second.seen, calls]).to.deep.equal([['p'], [], [['p']]]);
  });

  it('two owners on one method stack, each working, and each unwraps only its own', () => {
    const a = createWrapping({});
    const b = createWrapping({});
    const { Thing, proto, calls } = makeClass();
    const original = proto.callTool;
    const onA = counting();
    const onB = counting();
    a.wrap(proto, 'callTool', onA.patch);
    b.wrap(proto, 'callTool', onB.patch);
    new Thing().callTool('both');
    // A is beneath B: switched off where it sits, B keeps working.
    a.unwrap(proto, 'callTool');
    new Thing().callTool('b only');
    a.wrap(proto, 'callTool', onA.patch);
    new Thing().callTool('both again');
    b.unwrap(proto, 'callTool');
    a.unwrap(proto, 'callTool');
    new Thing().callTool('none');
    expect([onA.seen, onB.seen]).to.deep.equal([
      ['both', 'both again'],
      ['both', 'b only', 'both again'],
    ]);
    expect(calls).to.have.length(4);
    expect(proto.callTool).to.equal(original);
  });

  it('leaves a foreign wrapper on top in place and switches itself off under it', () => {
    const w = createWrapping({});
    const { Thing, proto, calls } = makeClass();
    const ours = counting();
    const log: string[] = [];
    w.wrap(proto, 'callTool', ours.patch);
    foreignWrap(proto, 'callTool', log);
    w.unwrap(proto, 'callTool');
    new Thing().callTool('p');
    expect([ours.seen, log, calls]).to.deep.equal([[], ['foreign'], [['p']]]);
  });

  it('never switches off the prototype wrapper when wrapping an instance another tracer wrapped', () => {
    const w = createWrapping({});
    const { Thing, proto } = makeClass();
    const onProto = counting();
    const onInstance = counting();
    const log: string[] = [];
    w.wrap(proto, 'callTool', onProto.patch);
    const thing = new Thing() as unknown as Record<string, unknown>;
    // A tracer that wraps the instance: its original is our prototype wrapper.
    foreignWrap(thing, 'callTool', log);
    w.wrapInstance(thing, 'callTool', onInstance.patch);
    w.wrapInstance(thing, 'callTool', onInstance.patch);
    new Thing().callTool('b');
    (thing.callTool as Call).call(thing, 'a');
    expect([onInstance.seen, onProto.seen, log]).to.deep.equal([['a'], ['b', 'a'], ['foreign']]);
  });

  it('instance wrappers follow the prototype, and unwrapping deletes the own property', () => {
    const w = createWrapping({});
    const later = createWrapping({});
    const { Thing, proto } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const inst = counting();
    w.wrapInstance(thing, 'callTool', inst.patch);
    const onProto = counting();
    later.wrap(proto, 'callTool', onProto.patch);
    (thing.callTool as Call).call(thing, 'q');
    (thing.callTool as { __unwrap: () => void }).__unwrap();
    expect(Object.hasOwn(thing, 'callTool')).to.equal(false);
    (thing.callTool as Call).call(thing, 'r');
    expect([inst.seen, onProto.seen]).to.deep.equal([['q'], ['q', 'r']]);
  });

  it('keeps a method the instance had of its own, and restores it on unwrap', () => {
    const w = createWrapping({});
    const { Thing } = makeClass();
    const thing = new Thing() as unknown as Record<string, unknown>;
    const own = () => 'own';
    thing.callTool = own;
    w.wrapInstance(thing, 'callTool', counting().patch);
    expect((thing.callTool as () => string)()).to.equal('own');
    (thing.callTool as { __unwrap: () => void }).__unwrap();
    expect(thing.callTool).to.equal(own);
  });

  it('follow the prototype of the object they are called on, also when borrowed', () => {
    const w = createWrapping({});
    const first = makeClass();
    const second = makeClass();
    const thing = new first.Thing() as unknown as Record<string, unknown>;
    w.wrapInstance(thing, 'callTool', counting().patch);
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
    const w = createWrapping({});
    const target = {};
    w.wrap(target, 'callTool', counting().patch);
    expect(target).to.deep.equal({});
    expect(w.wrapInstance({}, 'callTool', counting().patch)).to.equal(false);
  });
});
