import { expect } from 'chai';
import { MASTRA_TOOLS } from '../../src/integrations/mastra/tools.js';
import { checkTools } from '../../src/kit/tools-map.js';
import { createScriptedEngine } from '../mcp/helpers/scripted-engine.js';

/** A tool as Mastra's `convertTools` builds it for one run: a new object, a schema with `jsonSchema`. */
function runTool(codes: readonly string[]) {
  return {
    type: 'function',
    description: 'Refund an order',
    parameters: {
      jsonSchema: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason_code: { type: 'string', enum: codes } },
        required: ['order_id', 'reason_code'],
      },
    },
    execute: (input: unknown) => Promise.resolve({ input }),
  };
}

describe('checkTools: an agent’s tools, built anew for every run', () => {
  it('lists a run’s tools only when their names, descriptions or schemas differ from the last run’s', () => {
    const engine = createScriptedEngine();
    const agent = {};
    const run = (tools: Record<string, unknown>) =>
      checkTools(engine.host, MASTRA_TOOLS, tools, agent);
    run({ refund_order: runTool(['DAMAGED', 'LATE']) });
    run({ refund_order: runTool(['DAMAGED', 'LATE']) });
    run({ refund_order: runTool(['DAMAGED', 'LATE']) });
    expect(engine.listings.length).to.equal(1);
    // A catalogue change, a tool added, a tool renamed: each is listed.
    run({ refund_order: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']) });
    run({ refund_order: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']), ship: runTool(['AMS']) });
    run({ refund: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']), ship: runTool(['AMS']) });
    const D = 'Refund an order';
    expect(engine.listings.map(({ listing }) => listing.tools)).to.deep.equal([
      [
        {
          name: 'refund_order',
          description: D,
          inputSchema: runTool(['DAMAGED', 'LATE']).parameters.jsonSchema,
        },
      ],
      [
        {
          name: 'refund_order',
          description: D,
          inputSchema: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']).parameters.jsonSchema,
        },
      ],
      [
        {
          name: 'refund_order',
          description: D,
          inputSchema: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']).parameters.jsonSchema,
        },
        { name: 'ship', description: D, inputSchema: runTool(['AMS']).parameters.jsonSchema },
      ],
      [
        {
          name: 'refund',
          description: D,
          inputSchema: runTool(['DAMAGED', 'LATE', 'WRONG_ITEM']).parameters.jsonSchema,
        },
        { name: 'ship', description: D, inputSchema: runTool(['AMS']).parameters.jsonSchema },
      ],
    ]);
    expect(engine.listings.every(({ scope }) => scope === agent)).to.equal(true);
  });

  it('copies a run’s plain tool as the framework copies its own: every property, a checked execute', () => {
    const engine = createScriptedEngine();
    const tool = runTool(['DAMAGED']);
    const { tools } = checkTools(engine.host, MASTRA_TOOLS, { refund_order: tool }, {});
    const copy = (tools as Record<string, typeof tool>).refund_order as typeof tool;
    expect(copy).to.not.equal(tool);
    expect(Object.keys(copy)).to.deep.equal(Object.keys(tool));
    const { execute, ...rest } = copy;
    const { execute: own, ...original } = tool;
    expect(rest).to.deep.equal(original);
    expect(rest.parameters).to.equal(original.parameters);
    expect(execute).to.not.equal(own);
    // The tool given is not changed.
    expect(tool.execute).to.equal(own);
  });

  it('copies a run’s tool of another class with its prototype and descriptors', () => {
    const engine = createScriptedEngine();
    class BuiltTool {
      readonly type = 'function';
      execute = (input: unknown) => Promise.resolve({ input });
      get description() {
        return 'Refund an order';
      }
    }
    const tool = new BuiltTool();
    const { tools } = checkTools(engine.host, MASTRA_TOOLS, { refund_order: tool }, {});
    const copy = (tools as Record<string, BuiltTool>).refund_order as BuiltTool;
    expect(Object.getPrototypeOf(copy)).to.equal(BuiltTool.prototype);
    expect(copy.description).to.equal('Refund an order');
    expect(copy.execute).to.not.equal(tool.execute);
  });
});

describe('checkTools: a tools map given again', () => {
  const tool = (name: string) => ({
    description: name,
    inputSchema: undefined,
    parameters: { jsonSchema: { type: 'object' } },
    execute: () => Promise.resolve(name),
  });

  it('comes back as the same checked map while it holds the same tools, and anew once it changes', () => {
    const engine = createScriptedEngine();
    const tools: Record<string, unknown> = { refund_order: tool('refund'), ship: tool('ship') };
    const first = checkTools(engine.host, MASTRA_TOOLS, tools).tools;
    expect(first).to.not.equal(tools);
    expect(checkTools(engine.host, MASTRA_TOOLS, tools).tools).to.equal(first);
    tools.ship = tool('ship again');
    const replaced = checkTools(engine.host, MASTRA_TOOLS, tools).tools;
    expect(replaced).to.not.equal(first);
    // The unchanged tool keeps its copy; the new one has its own.
    expect(replaced.refund_order).to.equal(first.refund_order);
    expect(replaced.ship).to.not.equal(first.ship);
    tools.cancel = tool('cancel');
    const added = checkTools(engine.host, MASTRA_TOOLS, tools).tools;
    expect(added).to.not.equal(replaced);
    expect(Object.keys(added)).to.deep.equal(['refund_order', 'ship', 'cancel']);
    delete tools.cancel;
    expect(checkTools(engine.host, MASTRA_TOOLS, tools).tools).to.not.equal(added);
  });
});
