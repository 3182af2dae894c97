import { expect } from 'chai';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';

const FRAMEWORK_MODULES = ['ai', '@openai/agents-core', '@langchain/core', '@mastra/core'];
const MCP_MODULES = ['@modelcontextprotocol/client', '@modelcontextprotocol/sdk', '@ai-sdk/mcp'];

function hooked(
  config: ConstructorParameters<typeof ToolArgumentInstrumentation>[0],
  among: readonly string[],
): string[] {
  const inst = new ToolArgumentInstrumentation({ enabled: false, ...config });
  const names = inst
    .getModuleDefinitions()
    .map((d) => d.name)
    .filter((name) => among.includes(name));
  inst.close();
  return names;
}

const modules = (config: ConstructorParameters<typeof ToolArgumentInstrumentation>[0]) =>
  hooked(config, FRAMEWORK_MODULES);

describe('frameworks — what registration hooks', () => {
  it('lists the frameworks by default, whatever mcp.enabled says', () => {
    expect(modules({})).to.deep.equal(FRAMEWORK_MODULES);
    expect(modules({ mcp: { enabled: false } })).to.deep.equal(FRAMEWORK_MODULES);
  });

  it('lists the MCP client lines, @ai-sdk/mcp among them, unless mcp.enabled is false', () => {
    expect(hooked({}, MCP_MODULES)).to.deep.equal(MCP_MODULES);
    expect(hooked({ frameworks: { enabled: false } }, MCP_MODULES)).to.deep.equal(MCP_MODULES);
    expect(hooked({ mcp: { enabled: false } }, MCP_MODULES)).to.deep.equal([]);
  });

  it('lists none of them with frameworks.enabled false; the explicit entry points still check', async () => {
    expect(modules({ frameworks: { enabled: false } })).to.deep.equal([]);
    const inst = new ToolArgumentInstrumentation({
      frameworks: { enabled: false },
      mcp: { enabled: false },
      mode: 'reject',
      checkedArguments: { refund_order: { reason_code: 'codes' } },
      valueSets: { codes: (await import('@argcheck/core')).staticValueSet(['DAMAGED']) },
    });
    await inst.ready();
    const answer = inst.mastraHooks().beforeToolCall({
      toolName: 'refund_order',
      input: { reason_code: 'LOST' },
      context: {},
    }) as unknown as { proceed: boolean };
    expect(answer.proceed).to.equal(false);
    inst.disable();
    inst.close();
  });
});
