import { expect } from 'chai';
import { context, propagation } from '@opentelemetry/api';
import { baggageValue, callContext } from '../../src/kit/call-context.js';
import { StackContextManager } from '../mcp/helpers/stack-context-manager.js';

describe('callContext', () => {
  before(() => {
    context.setGlobalContextManager(new StackContextManager());
  });
  after(() => {
    context.disable();
  });

  function withBaggage<T>(conversation: string, fn: () => T): T {
    const baggage = propagation.createBaggage({
      'gen_ai.conversation.id': { value: conversation },
    });
    return context.with(propagation.setBaggage(context.active(), baggage), fn);
  }

  it('reads the conversation and tool call ids from _meta first', () => {
    const params = {
      name: 't',
      _meta: {
        'gen_ai.conversation.id': 'conv-meta',
        'gen_ai.tool.call.id': 'call-1',
        baggage: 'gen_ai.conversation.id=conv-meta-baggage',
      },
    };
    const ctx = withBaggage('conv-otel', () => callContext(params));
    expect(ctx).to.deep.equal({ conversationId: 'conv-meta', toolCallId: 'call-1' });
  });

  it('then the W3C baggage carried in _meta.baggage (SEP-414)', () => {
    const params = {
      name: 't',
      _meta: { baggage: 'user=alice, gen_ai.conversation.id = conv%2042 ;ttl=1' },
    };
    const ctx = withBaggage('conv-otel', () => callContext(params));
    expect(ctx).to.deep.equal({ conversationId: 'conv 42' });
  });

  it('then the active OpenTelemetry baggage', () => {
    const ctx = withBaggage('conv-otel', () => callContext({ name: 't' }));
    expect(ctx).to.deep.equal({ conversationId: 'conv-otel' });
  });

  it('leaves the id out when nothing provides one (the engine applies the conversationId option)', () => {
    expect(callContext({ name: 't', _meta: { 'gen_ai.tool.call.id': 'call-9' } })).to.deep.equal({
      toolCallId: 'call-9',
    });
  });

  it('ignores ids that are not non-empty strings', () => {
    const params = {
      name: 't',
      _meta: { 'gen_ai.conversation.id': 42, 'gen_ai.tool.call.id': '' },
    };
    expect(callContext(params)).to.deep.equal({});
    expect(callContext({ name: 't', _meta: 'nope' })).to.deep.equal({});
  });
});

describe('baggageValue', () => {
  it('finds a key among members and properties, percent-decoded', () => {
    expect(baggageValue('a=1,b=two%20words;p=1', 'b')).to.equal('two words');
    expect(baggageValue('a=1', 'b')).to.equal(undefined);
  });

  it('gives nothing for malformed or oversized input', () => {
    expect(baggageValue('b=%E0%A4%A', 'b')).to.equal(undefined);
    expect(baggageValue('b', 'b')).to.equal(undefined);
    expect(baggageValue(42, 'b')).to.equal(undefined);
    expect(baggageValue(`b=1,${'x'.repeat(9000)}`, 'b')).to.equal(undefined);
  });
});
