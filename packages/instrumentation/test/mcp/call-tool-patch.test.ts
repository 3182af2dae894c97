import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import type { CheckOutcome } from '@argcheck/core';
import { patchCallTool } from '../../src/integrations/mcp/patches.js';
import { createHost } from '../../src/kit/host.js';
import { createScriptedEngine } from './helpers/scripted-engine.js';
import { makeClass } from './helpers/stand-in-client.js';

type Call = (...args: unknown[]) => unknown;

const params = (name: string) => ({ name, arguments: { reason_code: 'LATE' } });

/** An engine that records the tool of every call it checks and answers `decide(...)`. */
function engineAnswering(decide?: (tool: string, args: unknown) => Partial<CheckOutcome>) {
  const engine = createScriptedEngine();
  const seen: string[] = [];
  engine.answer = (tool, args) => {
    seen.push(tool);
    return { tool, action: 'call', args, findings: [], ...decide?.(tool, args) };
  };
  const { host } = engine;
  const w = host.wrapping;
  return {
    engine,
    seen,
    patch: patchCallTool(host),
    wrapMethod: (target: object, name: string, patch: ReturnType<typeof patchCallTool>) =>
      w.wrap(target, name, patch),
    unwrapMethod: (target: object, name: string) => w.unwrap(target, name),
    wrapInstanceMethod: (target: object, name: string, patch: ReturnType<typeof patchCallTool>) =>
      w.wrapInstance(target, name, patch),
  };
}

describe('the callTool wrapper', () => {
  it('forwards every further argument as given, their count included, and the params as the copy checked', () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, seen, wrapMethod } = engineAnswering();
    wrapMethod(proto, 'callTool', patch);
    const thing = new Thing() as unknown as { callTool: Call };
    const p = params('t');
    thing.callTool();
    thing.callTool(p);
    thing.callTool(p, undefined, { timeout: 1 });
    thing.callTool(1, 2, 3, 4, 5);
    expect(calls).to.deep.equal([[], [p], [p, undefined, { timeout: 1 }], [1, 2, 3, 4, 5]]);
    // What goes out is what was checked: a copy, never the caller's object to read again.
    expect(calls[1]?.[0]).to.not.equal(p);
    expect(seen).to.deep.equal(['t', 't']);
    expect(isWrapped(proto.callTool)).to.equal(true);
  });

  it('replaces only the params, with a copy, when the check rewrote the arguments', () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, wrapMethod } = engineAnswering(() => ({
      action: 'call_rewritten',
      args: { reason_code: 'LATE' },
    }));
    wrapMethod(proto, 'callTool', patch);
    const p = { name: 't', arguments: { reason_code: 'late' } };
    (new Thing() as unknown as { callTool: Call }).callTool(p, 'schema', 'options');
    expect(calls).to.deep.equal([
      [{ name: 't', arguments: { reason_code: 'LATE' } }, 'schema', 'options'],
    ]);
    expect(p.arguments).to.deep.equal({ reason_code: 'late' });
  });

  it('answers a rejection without calling the method', async () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, wrapMethod } = engineAnswering(() => ({
      action: 'reject',
      repairMessage: 'use LATE',
    }));
    wrapMethod(proto, 'callTool', patch);
    const result = await (new Thing() as unknown as { callTool: Call }).callTool(
      params('t'),
      'schema',
    );
    expect([result, calls]).to.deep.equal([
      { isError: true, content: [{ type: 'text', text: 'use LATE' }] },
      [],
    ]);
  });

  it('checks once when prototype and instance are both wrapped, in any order', () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, seen, wrapMethod, wrapInstanceMethod } = engineAnswering();
    const early = new Thing() as unknown as Record<string, unknown>;
    wrapInstanceMethod(early, 'callTool', patch);
    wrapMethod(proto, 'callTool', patch);
    wrapInstanceMethod(early, 'callTool', patch);
    (early.callTool as Call)(params('x'), 'rest');
    new Thing().callTool(params('y'));
    expect(seen).to.deep.equal(['x', 'y']);
    expect(calls).to.deep.equal([[params('x'), 'rest'], [params('y')]]);
  });

  it('checks once when the outer wrapper rewrote the params', () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, seen, wrapMethod, wrapInstanceMethod } = engineAnswering(() => ({
      action: 'call_rewritten',
      args: { reason_code: 'LATE' },
    }));
    const thing = new Thing() as unknown as Record<string, unknown>;
    wrapMethod(proto, 'callTool', patch);
    wrapInstanceMethod(thing, 'callTool', patch);
    (thing.callTool as Call)({ name: 'x', arguments: { reason_code: 'late' } });
    expect(seen).to.deep.equal(['x']);
    expect(calls).to.deep.equal([[{ name: 'x', arguments: { reason_code: 'LATE' } }]]);
  });

  it('checks the next call after the method threw', () => {
    const { proto } = makeClass();
    let fail = true;
    proto.callTool = function (): string {
      if (fail) throw new Error('sdk');
      return 'sent';
    };
    const { patch, seen, wrapInstanceMethod } = engineAnswering();
    const thing = Object.create(proto) as Record<string, unknown>;
    wrapInstanceMethod(thing, 'callTool', patch);
    expect(() => (thing.callTool as Call)(params('first'))).to.throw('sdk');
    fail = false;
    expect((thing.callTool as Call)(params('second'))).to.equal('sent');
    expect(seen).to.deep.equal(['first', 'second']);
  });

  it('passes every argument through once switched off under a foreign wrapper', () => {
    const { Thing, proto, calls } = makeClass();
    const { patch, seen, wrapMethod, unwrapMethod } = engineAnswering(() => ({
      action: 'call_rewritten',
      args: {},
    }));
    wrapMethod(proto, 'callTool', patch);
    const wrapped = proto.callTool as Call;
    proto.callTool = Object.assign(
      function (this: unknown, ...args: unknown[]): unknown {
        return wrapped.apply(this, args);
      },
      { __original: wrapped },
    );
    unwrapMethod(proto, 'callTool');
    const p = params('p');
    new Thing().callTool(p, 'schema', 'options', 'more');
    expect(seen).to.deep.equal([]);
    expect(calls).to.deep.equal([[p, 'schema', 'options', 'more']]);
  });

  it('goes out untouched with no engine yet (a hook that fired inside the constructor)', () => {
    const { Thing, proto, calls } = makeClass();
    const scripted = createScriptedEngine();
    const host = createHost({
      engine: () => undefined,
      diag: () => scripted.diag,
      deriveFrameworkSets: () => true,
      seen: () => undefined,
    });
    host.wrapping.wrap(proto, 'callTool', patchCallTool(host));
    const p = params('t');
    new Thing().callTool(p);
    expect(calls[0]?.[0]).to.equal(p);
  });
});
