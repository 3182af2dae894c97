import { expect } from 'chai';
import { MASTRA_TOOLS } from '../../src/integrations/mastra/tools.js';
import { checkRunTools } from '../../src/kit/run-tools.js';
import { createScriptedEngine } from '../mcp/helpers/scripted-engine.js';

/** A tool as Mastra's `convertTools` builds it for one run: a new object, a schema with `jsonSchema`. */
function runTool(codes: readonly string[], description = 'Refund an order') {
  const calls: unknown[] = [];
  return {
    type: 'function',
    description,
    parameters: {
      jsonSchema: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason_code: { type: 'string', enum: codes } },
        required: ['order_id', 'reason_code'],
      },
    },
    calls,
    execute: (input: unknown) => {
      calls.push(input);
      return Promise.resolve({ input });
    },
  };
}

type RunTool = ReturnType<typeof runTool>;

const D = 'Refund an order';
const listed = (name: string, codes: readonly string[], description = D) => ({
  name,
  description,
  inputSchema: runTool(codes).parameters.jsonSchema,
});

describe('checkRunTools: an agent’s tools, built anew for every run', () => {
  it('checks each run’s tools in place: the same map and objects, a checked execute, nothing else changed', async () => {
    const engine = createScriptedEngine();
    const seen: string[] = [];
    engine.answer = (tool, args) => {
      seen.push(tool);
      return { tool, action: 'call', args, findings: [] };
    };
    const tool = runTool(['DAMAGED']);
    const { execute: own, ...before } = tool;
    const map = { refund_order: tool };
    const { tools } = checkRunTools(engine.host, MASTRA_TOOLS, map, {});
    expect(tools).to.equal(map);
    expect(tools.refund_order).to.equal(tool);
    const { execute, ...after } = tool;
    expect(after).to.deep.equal(before);
    expect(execute).to.not.equal(own);
    await tool.execute({ order_id: 'o-1', reason_code: 'DAMAGED' });
    expect(seen).to.deep.equal(['refund_order']);
    expect(tool.calls).to.deep.equal([{ order_id: 'o-1', reason_code: 'DAMAGED' }]);
    // A run's tools given again (the same objects): not wrapped twice.
    checkRunTools(engine.host, MASTRA_TOOLS, map, {});
    await tool.execute({ order_id: 'o-2', reason_code: 'DAMAGED' });
    expect(seen).to.deep.equal(['refund_order', 'refund_order']);
  });

  it('lists a run’s tools when their names differ from the last run’s, and when a called tool’s description or schema does', async () => {
    const engine = createScriptedEngine();
    const agent = {};
    const run = (tools: Record<string, RunTool>) => {
      checkRunTools(engine.host, MASTRA_TOOLS, tools, agent);
      return tools;
    };
    const call = (tool: RunTool | undefined) =>
      tool?.execute({ order_id: 'o-1', reason_code: 'LATE' });
    await call(run({ refund_order: runTool(['DAMAGED', 'LATE']) }).refund_order);
    await call(run({ refund_order: runTool(['DAMAGED', 'LATE']) }).refund_order);
    run({ refund_order: runTool(['DAMAGED', 'LATE']) });
    // The same schema written with its keys in another order: the same structure, not listed again.
    const reordered = runTool(['DAMAGED', 'LATE']);
    const { type, properties, required } = reordered.parameters.jsonSchema;
    reordered.parameters.jsonSchema = { required, properties, type };
    await call(run({ refund_order: reordered }).refund_order);
    expect(engine.listings.length).to.equal(1);
    // A catalogue change: listed when the changed tool is called, not before.
    const changed = run({ refund_order: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']) });
    expect(engine.listings.length).to.equal(1);
    await call(changed.refund_order);
    await call(changed.refund_order);
    // A tool added, a tool renamed: listed with the run.
    run({ refund_order: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']), ship: runTool(['AMS']) });
    run({ refund: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']), ship: runTool(['AMS']) });
    // A rewritten description, seen at its first call.
    await call(
      run({
        refund: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM'], 'Refund it'),
        ship: runTool(['AMS']),
      }).refund,
    );
    expect(engine.listings.map(({ listing }) => listing.tools)).to.deep.equal([
      [listed('refund_order', ['DAMAGED', 'LATE'])],
      [listed('refund_order', ['DAMAGED', 'LATE', 'WRONG_ITEM'])],
      [listed('refund_order', ['DAMAGED', 'LATE', 'WRONG_ITEM']), listed('ship', ['AMS'])],
      [listed('refund', ['DAMAGED', 'LATE', 'WRONG_ITEM']), listed('ship', ['AMS'])],
      [listed('refund', ['DAMAGED', 'LATE', 'WRONG_ITEM'], 'Refund it'), listed('ship', ['AMS'])],
    ]);
    expect(engine.listings.every(({ scope }) => scope === agent)).to.equal(true);
  });

  it('copies a tool it cannot change in place, in a copy of the map; the run’s other tools stay in place', async () => {
    const engine = createScriptedEngine();
    const frozen = Object.freeze(runTool(['DAMAGED']));
    const open = runTool(['LATE']);
    const map = { refund_order: frozen, ship: open };
    const { tools } = checkRunTools(engine.host, MASTRA_TOOLS, map, {});
    expect(tools).to.not.equal(map);
    expect(map.refund_order).to.equal(frozen);
    const copy = tools.refund_order;
    expect(copy).to.not.equal(frozen);
    expect(copy.execute).to.not.equal(frozen.execute);
    expect(Object.keys(copy)).to.deep.equal(Object.keys(frozen));
    expect(tools.ship).to.equal(open);
    await copy.execute({ order_id: 'o-1', reason_code: 'DAMAGED' });
    expect(frozen.calls).to.deep.equal([{ order_id: 'o-1', reason_code: 'DAMAGED' }]);
  });

  it('copies a tool of another class whose execute is an accessor, with its prototype and descriptors', () => {
    const engine = createScriptedEngine();
    class BuiltTool {
      readonly type = 'function';
      get execute() {
        return (input: unknown) => Promise.resolve({ input });
      }
      get description() {
        return D;
      }
    }
    const tool = new BuiltTool();
    const { tools } = checkRunTools(engine.host, MASTRA_TOOLS, { refund_order: tool }, {});
    const copy = tools.refund_order;
    expect(copy).to.not.equal(tool);
    expect(Object.getPrototypeOf(copy)).to.equal(BuiltTool.prototype);
    expect(copy.description).to.equal(D);
    expect(copy.execute).to.not.equal(tool.execute);
  });

  it('leaves a disabled instance’s tools passing calls straight on', async () => {
    const engine = createScriptedEngine();
    let on = true;
    const seen: string[] = [];
    engine.answer = (tool, args) => {
      seen.push(tool);
      return { tool, action: 'call', args, findings: [] };
    };
    const host = { ...engine.host, engine: () => (on ? engine : undefined) };
    const tool = runTool(['DAMAGED']);
    checkRunTools(host, MASTRA_TOOLS, { refund_order: tool }, {});
    on = false;
    await tool.execute({ order_id: 'o-1', reason_code: 'DAMAGED' });
    expect(seen).to.deep.equal([]);
    expect(tool.calls.length).to.equal(1);
  });
});
