import { expect } from 'chai';
import { MASTRA_TOOLS } from '../../src/integrations/mastra/tools.js';
import { checkTools } from '../../src/kit/tools-map.js';
import { createScriptedEngine } from '../mcp/helpers/scripted-engine.js';

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
    const first = checkTools(engine.host, MASTRA_TOOLS, tools);
    expect(first).to.not.equal(tools);
    expect(checkTools(engine.host, MASTRA_TOOLS, tools)).to.equal(first);
    tools.ship = tool('ship again');
    const replaced = checkTools(engine.host, MASTRA_TOOLS, tools);
    expect(replaced).to.not.equal(first);
    // The unchanged tool keeps its copy; the new one has its own.
    expect(replaced.refund_order).to.equal(first.refund_order);
    expect(replaced.ship).to.not.equal(first.ship);
    tools.cancel = tool('cancel');
    const added = checkTools(engine.host, MASTRA_TOOLS, tools);
    expect(added).to.not.equal(replaced);
    expect(Object.keys(added)).to.deep.equal(['refund_order', 'ship', 'cancel']);
    delete tools.cancel;
    expect(checkTools(engine.host, MASTRA_TOOLS, tools)).to.not.equal(added);
  });
});
