import { expect } from 'chai';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { engineOf } from '../mcp/helpers/recorded.js';

/**
 * Defect: a framework tool's catalog (origin `ai-sdk`, `mastra`, …) was
 * derived only when `mcp.deriveValueSets` was true, whatever
 * `frameworks.deriveValueSets` said. Each origin now follows its own option.
 */
const refundTool = {
  name: 'refund_order',
  inputSchema: {
    type: 'object',
    properties: { reason_code: { type: 'string', enum: ['DAMAGED', 'LATE'] } },
  },
};

function setFor(options: { mcp: boolean; frameworks: boolean }, origin: string) {
  const inst = new ToolArgumentInstrumentation({
    enabled: false,
    mcp: { enabled: false, deriveValueSets: options.mcp },
    frameworks: { enabled: false, deriveValueSets: options.frameworks },
  });
  return async () => {
    const engine = engineOf(inst);
    const scope = {};
    await engine.toolsListed(scope, { tools: [refundTool], origin });
    const sets = Object.keys(engine.catalogFor(scope)?.sets ?? {});
    inst.close();
    return sets;
  };
}

describe('regression: framework catalogs follow frameworks.deriveValueSets, not mcp.deriveValueSets', () => {
  it('derives a framework catalog with mcp.deriveValueSets off', async () => {
    expect(await setFor({ mcp: false, frameworks: true }, 'ai-sdk')()).to.deep.equal([
      'ai-sdk:refund_order.reason_code',
    ]);
  });

  it('does not derive a framework catalog with frameworks.deriveValueSets off', async () => {
    expect(await setFor({ mcp: true, frameworks: false }, 'ai-sdk')()).to.deep.equal([]);
  });

  it('still derives an MCP catalog by mcp.deriveValueSets alone', async () => {
    expect(await setFor({ mcp: true, frameworks: false }, 'mcp')()).to.deep.equal([
      'mcp:refund_order.reason_code',
    ]);
    expect(await setFor({ mcp: false, frameworks: true }, 'mcp')()).to.deep.equal([]);
  });
});
