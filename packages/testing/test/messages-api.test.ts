import { expect } from 'chai';
import { scriptedMessagesApi } from '../src/messages-api.js';
import type { ScriptedMessagesApi } from '../src/messages-api.js';

const TOOLS = [{ name: 'mcp__shop__refund_order', input_schema: { type: 'object' } }];
const USE = { id: 'toolu_1', name: 'mcp__shop__refund_order', input: { order_id: 'o-1' } };

async function post(api: ScriptedMessagesApi, body: object, path = '/v1/messages?beta=true') {
  return fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** The events of a server-sent event stream, in order. */
function events(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [event, data] = chunk.split('\n');
      const parsed = JSON.parse((data ?? '').slice('data: '.length)) as Record<string, unknown>;
      expect(event).to.equal(`event: ${String(parsed.type)}`);
      return parsed;
    });
}

describe('scriptedMessagesApi', () => {
  let api: ScriptedMessagesApi;
  beforeEach(async () => {
    api = await scriptedMessagesApi([{ toolUses: [USE] }, { text: 'done' }]);
  });
  afterEach(() => api.close());

  it('streams the first agent turn’s tool call in the Messages API’s events, its input split across deltas', async () => {
    const res = await post(api, { model: 'm', stream: true, tools: TOOLS, messages: [] });
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    const stream = events(await res.text());
    expect(stream.map((e) => e.type)).to.deep.equal([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = stream
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => (e.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).to.deep.equal(USE.input);
    expect(stream[1]).to.deep.equal({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_1', name: USE.name, input: {} },
    });
    expect((stream[5]?.delta as { stop_reason: string }).stop_reason).to.equal('tool_use');
  });

  it('answers the next turn with text, a request without tools with "ok", and a body that does not stream as one message', async () => {
    const next = await post(api, {
      model: 'm',
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', ...USE }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'text', text: 'refunded' }],
            },
          ],
        },
      ],
    });
    const message = (await next.json()) as { content: unknown[]; stop_reason: string };
    expect(message.content).to.deep.equal([{ type: 'text', text: 'done' }]);
    expect(message.stop_reason).to.equal('end_turn');
    const aside = (await (await post(api, { model: 'm', messages: [] })).json()) as {
      content: unknown[];
    };
    expect(aside.content).to.deep.equal([{ type: 'text', text: 'ok' }]);
    expect(api.requests).to.have.length(2);
    expect(api.offeredTools()).to.deep.equal([USE.name]);
    expect(api.toolResults()).to.deep.equal({ toolu_1: { text: 'refunded', isError: false } });
    expect((await post(api, {}, '/v1/models')).status).to.equal(404);
  });
});
