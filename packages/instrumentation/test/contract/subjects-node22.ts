/**
 * The contract test's subjects whose frameworks need Node 22: their packages
 * (`@openai/agents` through its `openai` 7 dependency, `ai`, `@mastra/core`)
 * declare it, so they are installed, type-checked and run in the Node 24 tree
 * (scripts/compat-otel3.sh) and by `npm run test:versions`, not by the Node 20
 * install (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
 * What the subjects share is in subjects.ts.
 */
import { createRequire } from 'node:module';
import type * as Agents from '@openai/agents';
import type * as AgentsTesting from '@openai/agents-core/testing';
import type * as Ai from 'ai';
import { NODE_MAJOR } from '../frameworks/helpers/node-version.js';
import { forget, PROXY_JSON_SCHEMA, schemaOf, text, zod } from './subjects.js';
import type { Call, Subject } from './subjects.js';

const require = createRequire(import.meta.url);

const openAiAgents: Subject = {
  name: 'OpenAI Agents SDK (CommonJS build)',
  integration: 'openai_agents',
  framework: true,
  runs: ['run', 'run, streamed'],
  unavailable: () => undefined,
  explicitUnavailable: () => Promise.resolve(undefined),
  async turn(tools, calls, explicit, run = 'run') {
    forget('@openai');
    const agents = require('@openai/agents') as typeof Agents;
    const testing = require('@openai/agents-core/testing') as typeof AgentsTesting;
    const z = zod();
    agents.setTracingDisabled(true);
    const made = tools.map((spec) =>
      agents.tool({
        name: spec.name,
        description: spec.name,
        // A record of any arguments cannot be strict, and the SDK takes zod in strict mode only.
        ...(spec.shape === 'proxy'
          ? { parameters: PROXY_JSON_SCHEMA as never, strict: false }
          : { parameters: schemaOf(z, spec) as never }),
        inputGuardrails: explicit === undefined ? [] : [explicit.openAIAgentsGuardrail() as never],
        execute: (args: unknown) => spec.run(args as Record<string, unknown>),
      }),
    );
    const model = new testing.ScriptedModel([
      calls.map((c) => testing.functionCall(c.tool, c.args, { callId: c.id })),
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'contract', model, tools: made });
    if (run === 'run, streamed') {
      const streamed = await agents.run(agent, 'go', { stream: true });
      for await (const event of streamed) void event;
      await streamed.completed;
    } else {
      await agents.run(agent, 'go');
    }
    const answers: Record<string, string> = {};
    const input = model.calls[1]?.request.input;
    for (const item of Array.isArray(input) ? input : []) {
      if (item.type === 'function_call_result') answers[item.callId] = text(item.output);
    }
    return answers;
  },
};

/**
 * The AI SDK's mock model: a first step with `calls`, then text; every
 * prompt kept. Streamed, each call's arguments arrive split across two
 * chunks, as providers stream them.
 */
async function mockModel(calls: readonly Call[], spec: 'v3' | 'v4') {
  const { MockLanguageModelV3, MockLanguageModelV4, convertArrayToReadableStream } =
    await import('ai/test');
  const Mock = (
    spec === 'v3' ? MockLanguageModelV3 : MockLanguageModelV4
  ) as typeof MockLanguageModelV4;
  const prompts: unknown[][] = [];
  const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
  const finishReason = (unified: 'tool-calls' | 'stop') => ({ unified, raw: undefined });
  const model = new Mock({
    doGenerate: ((options: { prompt: unknown[] }) => {
      prompts.push(options.prompt);
      return Promise.resolve(
        prompts.length === 1
          ? {
              content: calls.map((c) => ({
                type: 'tool-call' as const,
                toolCallId: c.id,
                toolName: c.tool,
                input: JSON.stringify(c.args),
              })),
              finishReason: finishReason('tool-calls'),
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text' as const, text: 'done' }],
              finishReason: finishReason('stop'),
              usage,
              warnings: [],
            },
      );
    }) as never,
    doStream: ((options: { prompt: unknown[] }) => {
      prompts.push(options.prompt);
      const parts: unknown[] =
        prompts.length === 1
          ? [
              ...calls.flatMap((c) => {
                const input = JSON.stringify(c.args);
                const half = Math.floor(input.length / 2);
                return [
                  { type: 'tool-input-start', id: c.id, toolName: c.tool },
                  { type: 'tool-input-delta', id: c.id, delta: input.slice(0, half) },
                  { type: 'tool-input-delta', id: c.id, delta: input.slice(half) },
                  { type: 'tool-input-end', id: c.id },
                  { type: 'tool-call', toolCallId: c.id, toolName: c.tool, input },
                ];
              }),
              { type: 'finish', finishReason: finishReason('tool-calls'), usage },
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'done' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: finishReason('stop'), usage },
            ];
      return Promise.resolve({ stream: convertArrayToReadableStream<unknown>(parts) });
    }) as never,
  });
  const answers = (): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const message of prompts[1] ?? []) {
      const m = message as {
        role?: string;
        content?: { type?: string; toolCallId?: string; output?: unknown }[];
      };
      if (m.role !== 'tool') continue;
      for (const part of m.content ?? []) {
        if (part.type === 'tool-result' && part.toolCallId !== undefined)
          out[part.toolCallId] = text(part.output);
      }
    }
    return out;
  };
  return { model, answers };
}

/** What `streamText`, `agent.stream` and their kin return: a result to drain. */
interface Streamed {
  consumeStream(): PromiseLike<void>;
}

const NEEDS_22 = () =>
  NODE_MAJOR < 22 ? 'needs Node >= 22 (the framework does not load on older Node)' : undefined;

const aiSdk: Subject = {
  name: 'Vercel AI SDK (required: the patched copy of its namespace)',
  integration: 'ai_sdk',
  framework: true,
  runs: ['generateText', 'streamText', 'ToolLoopAgent.generate', 'ToolLoopAgent.stream'],
  unavailable: NEEDS_22,
  explicitUnavailable: () => Promise.resolve(undefined),
  async turn(tools, calls, explicit, run = 'generateText') {
    // `ai` is ESM only: require() (Node 22+) goes through the require hook, which
    // hands back a patched copy; the copy is made once per loaded namespace.
    const ai = require('ai') as typeof Ai;
    const z = zod();
    let map: Record<string, unknown> = Object.fromEntries(
      tools.map((spec) => [
        spec.name,
        ai.tool({
          description: spec.name,
          inputSchema: schemaOf(z, spec) as never,
          execute: (args: unknown) => spec.run(args as Record<string, unknown>),
        }),
      ]),
    );
    if (explicit !== undefined) map = explicit.wrapAiSdkTools(map);
    const { model, answers } = await mockModel(calls, 'v4');
    // The SDK's option types are generic over the tools map; these calls pass it untyped.
    const options = { model, tools: map, stopWhen: ai.isStepCount(2) };
    type Loose<R> = (options: object) => R;
    const agent = () =>
      new (
        ai.ToolLoopAgent as unknown as new (options: object) => {
          generate(options: object): Promise<unknown>;
          stream(options: object): Promise<Streamed>;
        }
      )(options);
    if (run === 'streamText') {
      await (ai.streamText as Loose<Streamed>)({ ...options, prompt: 'go' }).consumeStream();
    } else if (run === 'ToolLoopAgent.generate') {
      await agent().generate({ prompt: 'go' });
    } else if (run === 'ToolLoopAgent.stream') {
      await (await agent().stream({ prompt: 'go' })).consumeStream();
    } else {
      await (ai.generateText as Loose<Promise<unknown>>)({ ...options, prompt: 'go' });
    }
    return answers();
  },
};

interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
  stream(prompt: string, options?: object): Promise<Streamed>;
}

const mastra: Subject = {
  name: 'Mastra (CommonJS build)',
  integration: 'mastra',
  framework: true,
  runs: ['generate', 'stream'],
  unavailable: NEEDS_22,
  explicitUnavailable: () => Promise.resolve(undefined),
  async turn(tools, calls, explicit, run = 'generate') {
    forget('@mastra');
    const { Agent } = require('@mastra/core/agent') as {
      Agent: new (config: object) => MastraAgent;
    };
    const { createTool } = require('@mastra/core/tools') as {
      createTool: (config: object) => unknown;
    };
    const z = zod();
    const made = Object.fromEntries(
      tools.map((spec) => [
        spec.name,
        createTool({
          id: spec.name,
          description: spec.name,
          inputSchema: schemaOf(z, spec),
          execute: (args: unknown) => spec.run(args as Record<string, unknown>),
        }),
      ]),
    );
    const map = explicit === undefined ? made : explicit.wrapMastraTools(made);
    const { model, answers } = await mockModel(calls, 'v3');
    const agent = new Agent({
      id: 'contract',
      name: 'contract',
      instructions: 'go',
      model,
      tools: map,
    });
    if (run === 'stream') await (await agent.stream('go', { maxSteps: 2 })).consumeStream();
    else await agent.generate('go', { maxSteps: 2 });
    return answers();
  },
};

export const NODE22_SUBJECTS: readonly Subject[] = [openAiAgents, aiSdk, mastra];
