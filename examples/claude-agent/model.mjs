// A scripted model behind the Anthropic Messages API, on loopback: the SDK's
// binary is pointed at it with ANTHROPIC_BASE_URL, so the example needs no
// key and no network. Its first agent turn calls refund_order three times;
// every later one answers with text. It keeps each request, so the example can
// show what the model read back.
import { createServer } from 'node:http';

const event = (e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

/** One assistant message as the API streams it. */
function stream(model, blocks) {
  const tool = blocks.some((b) => b.type === 'tool_use');
  const message = { id: 'msg_example', type: 'message', role: 'assistant', model, content: [] };
  const usage = { input_tokens: 1, output_tokens: 1 };
  let out = event({ type: 'message_start', message: { ...message, usage } });
  blocks.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    const delta =
      block.type === 'text'
        ? { type: 'text_delta', text: block.text }
        : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
    out += event({ type: 'content_block_start', index, content_block: start });
    out += event({ type: 'content_block_delta', index, delta });
    out += event({ type: 'content_block_stop', index });
  });
  out += event({
    type: 'message_delta',
    delta: { stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  return out + event({ type: 'message_stop' });
}

export async function startModel(toolUses) {
  const requests = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text || '{}');
      requests.push(body);
      // A request that offers tools is an agent turn; the first has no assistant message yet.
      const first =
        (body.tools ?? []).length > 0 && !(body.messages ?? []).some((m) => m.role === 'assistant');
      const blocks = first
        ? toolUses.map((use) => ({ type: 'tool_use', ...use }))
        : [{ type: 'text', text: 'Two orders refunded; o-3 needs a valid reason code.' }];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(stream(body.model, blocks));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** What the model read back per tool-use id, as text. */
    toolResults() {
      const results = {};
      for (const body of requests)
        for (const message of body.messages ?? [])
          for (const block of Array.isArray(message.content) ? message.content : [])
            if (block.type === 'tool_result')
              results[block.tool_use_id] =
                typeof block.content === 'string'
                  ? block.content
                  : block.content.map((part) => part.text ?? '').join('');
      return results;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
