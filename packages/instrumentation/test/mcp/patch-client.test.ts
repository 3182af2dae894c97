import { expect } from 'chai';
import { DiagLogLevel } from '@opentelemetry/api';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { captureDiag } from '@argcheck/testing/diag';
import {
  createScriptedEngine,
  fakeClientClass,
  instrumentClient,
} from './helpers/scripted-engine.js';

describe('an instrumented client — what callTool forwards', () => {
  const FakeClient = fakeClientClass();

  function setUp() {
    const host = createScriptedEngine();
    const client = new FakeClient();
    instrumentClient(client, host);
    return { host, client };
  }

  it('forwards a copy of the params, read once, and every further argument as given when the check says call', async () => {
    const { client } = setUp();
    const params = { name: 'refund_order', arguments: { reason_code: 'LATE' } };
    const schema = { parse: () => undefined };
    const options = { timeout: 5 };
    const result = await client.callTool(params, schema, options);
    expect(client.sent).to.have.length(1);
    expect(client.sent[0]?.[0]).to.deep.equal(params);
    expect(client.sent[0]?.[0]).to.not.equal(params);
    expect(client.sent[0]?.slice(1)).to.deep.equal([schema, options]);
    expect(result).to.deep.equal({ content: [{ type: 'text', text: 'from server' }] });
  });

  it('forwards a copy with the rewritten arguments and leaves the caller’s params alone', async () => {
    const { host, client } = setUp();
    host.answer = (tool) => ({
      tool,
      action: 'call_rewritten',
      args: { reason_code: 'LATE' },
      findings: [],
    });
    const params = { name: 'refund_order', arguments: { reason_code: 'late' }, _meta: { k: 'v' } };
    await client.callTool(params, { timeout: 1 });
    expect(client.sent).to.deep.equal([
      [
        { name: 'refund_order', arguments: { reason_code: 'LATE' }, _meta: { k: 'v' } },
        { timeout: 1 },
      ],
    ]);
    expect(params.arguments).to.deep.equal({ reason_code: 'late' });
  });

  it('resolves a rejection to a tool error without calling the server', async () => {
    const { host, client } = setUp();
    host.answer = (tool, args) => ({
      tool,
      action: 'reject',
      args,
      findings: [],
      repairMessage: 'use LATE',
    });
    const result = await client.callTool({ name: 'refund_order', arguments: { reason_code: 'x' } });
    expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'use LATE' }] });
    expect(client.sent).to.deep.equal([]);
  });

  it('sends the call when a rejection carries no repair message (nothing to repair with)', async () => {
    const { host, client } = setUp();
    host.answer = (tool, args) => ({ tool, action: 'reject', args, findings: [] });
    await client.callTool({ name: 't', arguments: {} });
    expect(client.sent).to.have.length(1);
  });

  it('forwards the original call untouched when the check throws, even with a throwing logger', async () => {
    const { host, client } = setUp();
    host.answer = () => {
      throw new Error('engine bug');
    };
    const params = { name: 't', arguments: { a: 1 } };
    await client.callTool(params);
    expect(client.sent[0]?.[0]).to.equal(params);
    expect(host.logged.map((l) => l.level)).to.deep.equal(['error']);

    const broken = createScriptedEngine();
    broken.answer = () => {
      throw new Error('engine bug');
    };
    broken.diag.error = () => {
      throw new Error('logger bug');
    };
    const other = new FakeClient();
    instrumentClient(other, broken);
    await other.callTool(params);
    expect(other.sent[0]?.[0]).to.equal(params);
  });

  it('does not check calls without a tool name', async () => {
    const { host, client } = setUp();
    let checks = 0;
    host.answer = (tool, args) => {
      checks++;
      return { tool, action: 'call', args, findings: [] };
    };
    await client.callTool(undefined);
    await client.callTool({ arguments: {} });
    expect([checks, client.sent.length]).to.deep.equal([0, 2]);
  });

  it('passes the SDK’s own errors through unchanged', async () => {
    const host = createScriptedEngine();
    const client = new FakeClient();
    const failure = new Error('transport closed');
    client.callTool = () => Promise.reject(failure);
    instrumentClient(client, host);
    let caught: unknown;
    try {
      await client.callTool({ name: 't', arguments: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.equal(failure);
  });

  it('ignores an object without callTool, with a warning', () => {
    const diagnostics = captureDiag(DiagLogLevel.WARN);
    try {
      new ToolArgumentInstrumentation({ enabled: false }).instrumentMcpClient({});
      expect(diagnostics.messages.map((m) => m.level)).to.deep.equal(['warn']);
    } finally {
      diagnostics.restore();
    }
  });
});
