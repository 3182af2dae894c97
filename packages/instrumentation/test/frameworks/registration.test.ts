import { expect } from 'chai';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';

const FRAMEWORK_MODULES = ['ai', '@ai-sdk/mcp', '@mastra/core'];

function modules(config: ConstructorParameters<typeof ToolArgumentInstrumentation>[0]): string[] {
  const inst = new ToolArgumentInstrumentation({ enabled: false, ...config });
  const names = inst
    .getModuleDefinitions()
    .map((d) => d.name)
    .filter((name) => FRAMEWORK_MODULES.includes(name));
  inst.close();
  return names;
}

describe('frameworks — what registration hooks', () => {
  it('lists the AI SDK, its MCP client and Mastra by default, whatever mcp.enabled says', () => {
    expect(modules({})).to.deep.equal(FRAMEWORK_MODULES);
    expect(modules({ mcp: { enabled: false } })).to.deep.equal(FRAMEWORK_MODULES);
  });

  it('lists none of them with frameworks.enabled false; the explicit entry points still check', async () => {
    expect(modules({ frameworks: { enabled: false } })).to.deep.equal([]);
    const inst = new ToolArgumentInstrumentation({
      enabled: false,
      frameworks: { enabled: false },
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
    inst.close();
  });
});
