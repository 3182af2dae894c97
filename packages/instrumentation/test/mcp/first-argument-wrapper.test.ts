import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import type { FirstArgumentInterceptor } from '../../src/mcp/wrap-method.js';
import { makeClass } from './helpers/stand-in-client.js';
import {
  Answer,
  unwrapMethod,
  wrapInstanceMethod,
  wrapPrototypeMethod,
} from '../../src/mcp/wrap-method.js';

/** Records the first arguments it sees and answers with `decide(first)`. */
function firstArgument(decide: (first: unknown) => unknown = (first) => first) {
  const seen: unknown[] = [];
  const intercept: FirstArgumentInterceptor = {
    first: (_client, first) => {
      seen.push(first);
      return decide(first);
    },
  };
  return { intercept, seen };
}

type Call = (...args: unknown[]) => unknown;

describe('first-argument interceptors (the callTool shape)', () => {
  it('forward every argument as given, their count included, when the first is kept', () => {
    const { Thing, proto, calls } = makeClass();
    const { intercept, seen } = firstArgument();
    wrapPrototypeMethod(proto, 'callTool', intercept);
    const thing = new Thing() as unknown as { callTool: Call };
    const params = { name: 't' };
    thing.callTool();
    thing.callTool(params);
    thing.callTool(params, undefined, { timeout: 1 });
    thing.callTool(1, 2, 3, 4, 5);
    expect(calls).to.deep.equal([
      [],
      [params],
      [params, undefined, { timeout: 1 }],
      [1, 2, 3, 4, 5],
    ]);
    expect(calls[1]?.[0]).to.equal(params);
    expect(seen).to.deep.equal([undefined, params, params, 1]);
    expect(isWrapped(proto.callTool)).to.equal(true);
  });

  it('replace only the first argument when the interceptor returns another value', () => {
    const { Thing, proto, calls } = makeClass();
    wrapPrototypeMethod(proto, 'callTool', firstArgument(() => 'replaced').intercept);
    const thing = new Thing() as unknown as { callTool: Call };
    thing.callTool('p', 'schema', 'options');
    thing.callTool(1, 2, 3, 4);
    expect(calls).to.deep.equal([
      ['replaced', 'schema', 'options'],
      ['replaced', 2, 3, 4],
    ]);
  });

  it('return an Answer’s value without calling the method', () => {
    const { Thing, proto, calls } = makeClass();
    wrapPrototypeMethod(proto, 'callTool', firstArgument(() => new Answer('answered')).intercept);
    const result = (new Thing() as unknown as { callTool: Call }).callTool('p', 'schema');
    expect([result, calls]).to.deep.equal(['answered', []]);
  });

  it('intercept once when prototype and instance are both wrapped, in any order', () => {
    const { Thing, proto, calls } = makeClass();
    const a = firstArgument();
    const b = firstArgument();
    const early = new Thing();
    wrapInstanceMethod(early as unknown as Record<string, unknown>, 'callTool', a.intercept);
    wrapPrototypeMethod(proto, 'callTool', b.intercept);
    early.callTool('x', 'rest');
    new Thing().callTool('y');
    expect([a.seen, b.seen, calls]).to.deep.equal([['x'], ['y'], [['x', 'rest'], ['y']]]);
  });

  it('intercept the next call after the method threw', () => {
    const { proto } = makeClass();
    let fail = true;
    proto.callTool = function (): string {
      if (fail) throw new Error('sdk');
      return 'sent';
    };
    const { intercept, seen } = firstArgument();
    const thing = Object.create(proto) as Record<string, unknown>;
    wrapInstanceMethod(thing, 'callTool', intercept);
    expect(() => (thing.callTool as Call)('first')).to.throw('sdk');
    fail = false;
    expect((thing.callTool as Call)('second')).to.equal('sent');
    expect(seen).to.deep.equal(['first', 'second']);
  });

  it('pass every argument through once switched off under a foreign wrapper', () => {
    const { Thing, proto, calls } = makeClass();
    const ours = firstArgument(() => 'replaced');
    wrapPrototypeMethod(proto, 'callTool', ours.intercept);
    const wrapped = proto.callTool as Call;
    proto.callTool = function (this: unknown, ...args: unknown[]): unknown {
      return wrapped.apply(this, args);
    };
    unwrapMethod(proto, 'callTool');
    new Thing().callTool('p', 'schema', 'options', 'more');
    expect([ours.seen, calls]).to.deep.equal([[], [['p', 'schema', 'options', 'more']]]);
  });

  it('follow the prototype of the object they are called on, also when borrowed', () => {
    const first = makeClass();
    const second = makeClass();
    const thing = new first.Thing() as unknown as Record<string, unknown>;
    wrapInstanceMethod(thing, 'callTool', firstArgument().intercept);
    const other = new second.Thing();
    (thing.callTool as Call).call(other, 'borrowed');
    first.proto.callTool = function (...args: unknown[]): string {
      first.calls.push(['patched', ...args]);
      return 'sent';
    };
    (thing.callTool as Call)('own');
    expect([first.calls, second.calls]).to.deep.equal([[['patched', 'own']], [['borrowed']]]);
  });
});
