/**
 * A scripted model behind the Anthropic Messages API, on loopback: what the
 * Claude Agent SDK's binary talks to when `ANTHROPIC_BASE_URL` points here.
 * `POST /v1/messages` (with or without `?beta=true`) answers each agent turn
 * from the script — tool calls or text — in the API's own server-sent
 * events (`message_start`, `content_block_start` / `_delta` / `_stop`,
 * `message_delta`, `message_stop`), or as one JSON message when the request
 * does not stream. Every request body is kept, so a test reads what the
 * model was sent: the tools it was offered and the tool results it read.
 *
 * A request that offers tools is an agent turn, the n-th when its messages
 * hold n - 1 assistant messages; others (a title, a summary) get `ok`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One tool call the model makes: its id, the tool's name as offered (`mcp__shop__refund_order`), its input. */
export interface ScriptedToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/** One agent turn of the model: tool calls, or a final text. */
export type ScriptedTurn =
  { readonly toolUses: readonly ScriptedToolUse[] } | { readonly text: string };

/** A tool result the model was sent: its text, and whether it was an error. */
export interface SentToolResult {
  readonly text: string;
  readonly isError: boolean;
}

export interface ScriptedMessagesApi {
  /** For `ANTHROPIC_BASE_URL`: `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Every `POST /v1/messages` body, in order. */
  readonly requests: Record<string, unknown>[];
  /** The tools the agent turns offered, by name (the last turn's). */
  offeredTools(): string[];
  /** The tool results the model was sent, by tool-use id. */
  toolResults(): Record<string, SentToolResult>;
  close(): Promise<void>;
}

type Block = { type: 'text'; text: string } | ({ type: 'tool_use' } & ScriptedToolUse);

function blocksOf(turn: ScriptedTurn | undefined): Block[] {
  if (turn === undefined) return [{ type: 'text', text: 'done' }];
  if ('text' in turn) return [{ type: 'text', text: turn.text }];
  return turn.toolUses.map((use) => ({ type: 'tool_use', ...use }));
}

function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

const USAGE = { input_tokens: 1, output_tokens: 1 };

function streamed(id: string, model: unknown, blocks: readonly Block[], stop: string): string {
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: USAGE,
      },
    },
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      // Split in two, as the API streams a call's input.
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      for (const part of [json.slice(0, half), json.slice(half)]) {
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: part },
        });
      }
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  events.push({ type: 'message_stop' });
  return sse(events);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function messagesOf(body: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
}

function toolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: unknown }[]) : [];
  return tools.map((t) => t.name).filter((n): n is string => typeof n === 'string');
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { text?: unknown }[])
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The scripted Messages API, listening on 127.0.0.1 (an ephemeral port). */
export async function scriptedMessagesApi(
  turns: readonly ScriptedTurn[],
): Promise<ScriptedMessagesApi> {
  const requests: Record<string, unknown>[] = [];
  let answered = 0;
  const answer = (res: ServerResponse, body: Record<string, unknown>): void => {
    const agentTurn = toolNames(body).length > 0;
    const index = messagesOf(body).filter((m) => m.role === 'assistant').length;
    const blocks = agentTurn ? blocksOf(turns[index]) : [{ type: 'text' as const, text: 'ok' }];
    const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const id = `msg_scripted_${++answered}`;
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(streamed(id, body.model, blocks, stop));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: blocks,
        stop_reason: stop,
        stop_sequence: null,
        usage: USAGE,
      }),
    );
  };
  const server = createServer((req, res) => {
    readBody(req).then(
      (text) => {
        if (req.method !== 'POST' || !(req.url ?? '').startsWith('/v1/messages')) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              type: 'error',
              error: { type: 'not_found_error', message: 'scripted: no such path' },
            }),
          );
          return;
        }
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = {};
        }
        requests.push(body);
        answer(res, body);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    offeredTools() {
      const last = requests.filter((b) => toolNames(b).length > 0).at(-1);
      return last === undefined ? [] : toolNames(last);
    },
    toolResults() {
      const results: Record<string, SentToolResult> = {};
      for (const body of requests) {
        for (const message of messagesOf(body)) {
          if (message.role !== 'user' || !Array.isArray(message.content)) continue;
          for (const block of message.content as Record<string, unknown>[]) {
            if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
            results[block.tool_use_id] = {
              text: resultText(block.content),
              isError: block.is_error === true,
            };
          }
        }
      }
      return results;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
