/**
 * Every integration as the contract test drives it: one model turn that makes
 * some tool calls, through the integration's own framework (or MCP client),
 * with tools the test defines. What differs between frameworks lives here;
 * what is asserted of all of them lives in contract-suite.ts.
 *
 * Each subject loads its framework's CommonJS build anew (so the hooks of the
 * instrumentations the test just registered see it), or, for MCP, connects a
 * real client to a real server in memory. `explicit` applies the
 * integration's explicit entry point of that instrumentation instead of
 * relying on the patch.
 *
 * The frameworks whose packages need Node 22 (the OpenAI Agents SDK, the AI
 * SDK, Mastra) are in subjects-node22.ts, built where they are installed
 * (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
 */
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import type * as ChatModels from '@langchain/core/language_models/chat_models';
import type * as LcMessages from '@langchain/core/messages';
import type * as LcTools from '@langchain/core/tools';
import type * as LgPrebuilt from '@langchain/langgraph/prebuilt';
import type * as ZodModule from 'zod';
import type { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import type { IntegrationName } from '../../src/semconv.js';
import {
  claudeAgentUnavailable,
  denyReason,
  drain,
  offline,
  requireSdk,
  unlessSdk,
} from '../frameworks/claude-agent/helpers/sdk.js';

const require = createRequire(import.meta.url);

/** A tool the test defines: its name, its arguments' shape, and what it does when it runs. */
export interface ToolSpec {
  readonly name: string;
  /** `refund`: `{ order_id, reason_code }`; `proxy`: `{ tool, arguments }` ("call any tool"). */
  readonly shape: 'refund' | 'proxy';
  run(args: Record<string, unknown>): Promise<string>;
}

/** One tool call the model makes. */
export interface Call {
  readonly id: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export interface Subject {
  readonly name: string;
  readonly integration: IntegrationName;
  /** Frameworks whose tools can be backed by an MCP client; MCP itself cannot. */
  readonly framework: boolean;
  /** Why it cannot run on this Node, if it cannot. */
  unavailable(): string | undefined;
  /** Why its explicit entry point cannot run with the installed framework, if it cannot. */
  explicitUnavailable(): Promise<string | undefined>;
  /** The ways the framework runs a turn (`generate`, `stream`, ...); the first is the plainest. */
  readonly runs: readonly [string, ...string[]];
  /**
   * One turn, run the way `run` names (default: the first): the model calls
   * `calls`, the framework runs the tools (or answers instead), and the
   * model's next turn reads an answer per call id, as text.
   */
  turn(
    tools: readonly ToolSpec[],
    calls: readonly Call[],
    explicit?: ToolArgumentInstrumentation,
    run?: string,
  ): Promise<Record<string, string>>;
}

/** Forget every module under `node_modules/<scope>/` so the next require loads it anew. */
export function forget(...scopes: string[]): void {
  const markers = scopes.map((scope) => `${sep}node_modules${sep}${scope}${sep}`);
  for (const key of Object.keys(require.cache)) {
    if (markers.some((m) => key.includes(m))) delete require.cache[key];
  }
}

export type Zod = typeof ZodModule.z;
export const zod = (): Zod => (require('zod') as { z: Zod }).z;

export function schemaOf(z: Zod, spec: ToolSpec) {
  return spec.shape === 'proxy'
    ? z.object({ tool: z.string(), arguments: z.record(z.string(), z.any()) })
    : z.object({ order_id: z.string(), reason_code: z.string() });
}

/** The proxy's parameters as JSON Schema, for a tool that is not strict. */
export const PROXY_JSON_SCHEMA = {
  type: 'object',
  properties: { tool: { type: 'string' }, arguments: { type: 'object' } },
  required: ['tool', 'arguments'],
  additionalProperties: false,
};

/** The text of whatever a framework hands the model as a tool's result. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const v = value as Record<string, unknown>;
    if (typeof v.text === 'string') return v.text;
    if (typeof v.message === 'string') return v.message;
    if ('value' in v) return text(v.value);
  }
  return JSON.stringify(value);
}

const langChain: Subject = {
  name: 'LangChain.js (CommonJS build, with LangGraph)',
  integration: 'langchain',
  framework: true,
  runs: ['invoke', 'stream'],
  unavailable: () => undefined,
  explicitUnavailable: () => Promise.resolve(undefined),
  async turn(tools, calls, explicit, run = 'invoke') {
    forget('@langchain');
    const { BaseChatModel } =
      require('@langchain/core/language_models/chat_models') as typeof ChatModels;
    const messages = require('@langchain/core/messages') as typeof LcMessages;
    const { tool } = require('@langchain/core/tools') as typeof LcTools;
    const { createReactAgent } = require('@langchain/langgraph/prebuilt') as typeof LgPrebuilt;
    const z = zod();
    const made = tools.map((spec) => {
      const t = tool((args: Record<string, unknown>) => spec.run(args), {
        name: spec.name,
        description: spec.name,
        schema: schemaOf(z, spec),
      });
      return explicit === undefined ? t : explicit.instrumentLangChainTool(t);
    });
    const turns = [
      new messages.AIMessage({
        content: '',
        tool_calls: calls.map((c) => ({
          id: c.id,
          name: c.tool,
          args: c.args,
          type: 'tool_call' as const,
        })),
      }),
      new messages.AIMessage('done'),
    ];
    const seen: LcMessages.BaseMessage[][] = [];
    class Scripted extends BaseChatModel {
      _llmType(): string {
        return 'scripted';
      }
      override bindTools(): this {
        return this;
      }
      _generate(input: LcMessages.BaseMessage[]) {
        seen.push(input);
        const message = turns[seen.length - 1] ?? new messages.AIMessage('(no more turns)');
        return Promise.resolve({ generations: [{ text: message.text, message }] });
      }
    }
    const agent = createReactAgent({ llm: new Scripted({}), tools: made });
    const input = { messages: [new messages.HumanMessage('go')] };
    if (run === 'stream') for await (const chunk of await agent.stream(input)) void chunk;
    else await agent.invoke(input);
    const answers: Record<string, string> = {};
    for (const m of seen[1] ?? []) {
      if (messages.ToolMessage.isInstance(m)) answers[m.tool_call_id] = m.text;
    }
    return answers;
  },
};

interface McpServerLike {
  registerTool(
    name: string,
    config: object,
    handler: (args: Record<string, unknown>) => Promise<unknown>,
  ): void;
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}
/**
 * The Claude Agent SDK with its real binary: the tools are an in-process MCP
 * server's (`createSdkMcpServer`, under the key `shop`, so the model calls
 * `mcp__shop__<tool>`), the model a scripted Messages API on loopback that
 * the binary talks to. The SDK's binary owns the MCP client of that server,
 * so "an MCP client underneath" is a client the tool's handler calls in this
 * process. A hook's deny reaches the model after the SDK's own prefix
 * (`PreToolUse:<tool> hook error: `), taken off here: the rest is the repair
 * message. The explicit entry point prepares the query's options.
 */
const claudeAgent: Subject = {
  name: `Claude Agent SDK (required: the patched copy of its namespace; its binary, a scripted model)${unlessSdk()}`,
  integration: 'claude_agent',
  framework: true,
  runs: ['query', 'startup'],
  unavailable: claudeAgentUnavailable,
  explicitUnavailable: () => Promise.resolve(undefined),
  async turn(tools, calls, explicit, run = 'query') {
    const sdk = requireSdk();
    const z = zod();
    const server = sdk.createSdkMcpServer({
      name: 'contract',
      tools: tools.map((spec) =>
        sdk.tool(spec.name, spec.name, schemaOf(z, spec).shape, async (args) => ({
          content: [{ type: 'text', text: await spec.run(args) }],
        })),
      ),
    });
    const session = await offline([
      { toolUses: calls.map((c) => ({ id: c.id, name: `mcp__shop__${c.tool}`, input: c.args })) },
      { text: 'done' },
    ]);
    try {
      const given = session.options({
        mcpServers: { shop: server },
        allowedTools: tools.map((spec) => `mcp__shop__${spec.name}`),
      });
      const options = explicit === undefined ? given : explicit.claudeAgentOptions(given);
      if (run === 'startup') {
        const warm = await sdk.startup!({ options });
        await drain(warm.query('go'));
      } else {
        await drain(sdk.query({ prompt: 'go', options }));
      }
      const results = session.api.toolResults();
      return Object.fromEntries(
        calls.map((c) => [c.id, denyReason(results[c.id]?.text ?? '(no result)')]),
      );
    } finally {
      await session.close();
    }
  },
};

export interface McpClientLike {
  connect(transport: unknown): Promise<void>;
  callTool(params: object): Promise<unknown>;
  close(): Promise<void>;
}
interface McpLib {
  Server: new (info: object) => McpServerLike;
  Client: new (info: object) => McpClientLike;
  pair(): [unknown, unknown];
}

/** The client and server classes of one SDK line, required anew (the client class is patched on load). */
function mcpLib(sdk: '1' | '2'): McpLib {
  forget('@modelcontextprotocol');
  if (sdk === '1') {
    const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js') as {
      McpServer: McpLib['Server'];
    };
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as {
      Client: McpLib['Client'];
    };
    const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js') as {
      InMemoryTransport: { createLinkedPair(): [unknown, unknown] };
    };
    return { Server: McpServer, Client, pair: () => InMemoryTransport.createLinkedPair() };
  }
  const { McpServer } = require('@modelcontextprotocol/server') as { McpServer: McpLib['Server'] };
  const { Client, InMemoryTransport } = require('@modelcontextprotocol/client') as {
    Client: McpLib['Client'];
    InMemoryTransport: { createLinkedPair(): [unknown, unknown] };
  };
  return { Server: McpServer, Client, pair: () => InMemoryTransport.createLinkedPair() };
}

/** A connected MCP client of one SDK line and a real server (in memory) with the test's tools. */
export interface McpShop {
  readonly client: McpClientLike;
  close(): Promise<void>;
}

/**
 * A server with `tools` and a client connected to it, both of one SDK line,
 * required anew (so the client class is the one the instrumentations just
 * patched); `explicit` instruments the client instead.
 */
export async function mcpShop(
  sdk: '1' | '2',
  tools: readonly ToolSpec[],
  explicit?: ToolArgumentInstrumentation,
): Promise<McpShop> {
  const lib = mcpLib(sdk);
  const z = zod();
  const server = new lib.Server({ name: 'contract-shop', version: '1.0.0' });
  for (const spec of tools) {
    const schema = schemaOf(z, spec);
    server.registerTool(
      spec.name,
      // SDK 1.x takes the object's shape; 2.x the schema.
      { inputSchema: sdk === '1' ? schema.shape : schema },
      async (args) => ({ content: [{ type: 'text', text: await spec.run(args) }] }),
    );
  }
  const [clientSide, serverSide] = lib.pair();
  await server.connect(serverSide);
  const client = new lib.Client({ name: 'contract', version: '1.0.0' });
  explicit?.instrumentMcpClient(client);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** The text of an MCP tool result's content. */
export function mcpText(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((p) => p.text ?? '').join('');
}

/** An MCP client line: a server with the test's tools, the calls made by the client directly. */
function mcpSubject(sdk: '1' | '2'): Subject {
  return {
    name:
      sdk === '1'
        ? 'MCP: @modelcontextprotocol/sdk 1.x client'
        : 'MCP: @modelcontextprotocol/client 2.x',
    integration: 'mcp',
    framework: false,
    runs: ['callTool'],
    unavailable: () => undefined,
    explicitUnavailable: () => Promise.resolve(undefined),
    async turn(tools, calls, explicit) {
      const shop = await mcpShop(sdk, tools, explicit);
      try {
        const answers: Record<string, string> = {};
        for (const c of calls) {
          answers[c.id] = mcpText(await shop.client.callTool({ name: c.tool, arguments: c.args }));
        }
        return answers;
      } finally {
        await shop.close();
      }
    },
  };
}

export const SUBJECTS: readonly Subject[] = [
  mcpSubject('1'),
  mcpSubject('2'),
  langChain,
  claudeAgent,
];
