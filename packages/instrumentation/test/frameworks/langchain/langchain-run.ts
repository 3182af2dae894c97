/**
 * The refund scenario on LangChain.js with LangGraph's prebuilt agent
 * (`createReactAgent`, whose `ToolNode` calls `tool.invoke(toolCall)`), and a
 * scripted chat model: `@langchain/core`'s fake chat models answer every turn
 * alike, so this minimal `BaseChatModel` subclass plays the two turns and
 * keeps the messages it was given. The modules come from the caller, so the
 * same run serves the CommonJS and the ESM builds.
 */
import type * as ChatModels from '@langchain/core/language_models/chat_models';
import type * as Messages from '@langchain/core/messages';
import type * as Tools from '@langchain/core/tools';
import type * as Prebuilt from '@langchain/langgraph/prebuilt';
import type { z as Zod } from 'zod';
import { CALLS, toolAnswer } from '../refund-scenario.js';

export interface LangChainModules {
  chatModels: typeof ChatModels;
  messages: typeof Messages;
  tools: typeof Tools;
  prebuilt: typeof Prebuilt;
  z: typeof Zod;
}

export interface LangChainRunOptions {
  stream?: boolean;
  /** Applied to the tool before the agent gets it (the explicit entry point). */
  wrapTool?: <T extends object>(tool: T) => T;
}

export interface LangChainRunResult {
  received: Record<string, string>;
  /** The content of each ToolMessage the model read on its next turn, per call id. */
  answers: Record<string, string>;
  /** The status of each of those ToolMessages, per call id. */
  statuses: Record<string, string>;
}

/** What a partner chat model (`ChatOpenAI`, `ChatAnthropic`) reports of its configuration. */
export interface ScriptedModelName {
  model: string;
  provider: string;
}

/**
 * A chat model that answers with `turns` in order and keeps each turn's
 * input messages; given a name, it reports it from `getLsParams` as the
 * partner packages do (`ls_model_name`, `ls_provider`).
 */
export function scriptedChatModel(
  m: LangChainModules,
  turns: Messages.AIMessage[],
  name?: ScriptedModelName,
): ChatModels.BaseChatModel & { readonly seen: Messages.BaseMessage[][] } {
  const { BaseChatModel } = m.chatModels;
  class ScriptedChatModel extends BaseChatModel {
    readonly seen: Messages.BaseMessage[][] = [];
    _llmType(): string {
      return 'scripted';
    }
    override bindTools(): this {
      return this;
    }
    override getLsParams(options: this['ParsedCallOptions']) {
      const params = super.getLsParams(options);
      return name === undefined
        ? params
        : { ...params, ls_model_name: name.model, ls_provider: name.provider };
    }
    _generate(messages: Messages.BaseMessage[]) {
      this.seen.push(messages);
      const message = turns[this.seen.length - 1] ?? new m.messages.AIMessage('(no more turns)');
      return Promise.resolve({ generations: [{ text: message.text, message }] });
    }
  }
  return new ScriptedChatModel({});
}

export function refundTool(m: LangChainModules, received: Record<string, string>) {
  return m.tools.tool(
    (args: { order_id: string; reason_code: string }) => {
      received[args.order_id] = args.reason_code;
      return Promise.resolve(toolAnswer(args));
    },
    {
      name: 'refund_order',
      description: 'Refund an order',
      schema: m.z.object({ order_id: m.z.string(), reason_code: m.z.string() }),
    },
  );
}

export async function runLangChain(
  m: LangChainModules,
  options: LangChainRunOptions = {},
): Promise<LangChainRunResult> {
  const received: Record<string, string> = {};
  const refund = refundTool(m, received);
  const tool = options.wrapTool ? options.wrapTool(refund) : refund;
  const model = scriptedChatModel(m, [
    new m.messages.AIMessage({
      content: '',
      tool_calls: CALLS.map((c) => ({
        id: c.id,
        name: 'refund_order',
        args: c.args,
        type: 'tool_call',
      })),
    }),
    new m.messages.AIMessage('done'),
  ]);
  const agent = m.prebuilt.createReactAgent({ llm: model, tools: [tool] });
  const input = { messages: [new m.messages.HumanMessage('refund three orders')] };
  if (options.stream === true) {
    for await (const chunk of await agent.stream(input)) void chunk;
  } else {
    await agent.invoke(input);
  }
  const answers: Record<string, string> = {};
  const statuses: Record<string, string> = {};
  for (const message of model.seen[1] ?? []) {
    if (!m.messages.ToolMessage.isInstance(message)) continue;
    answers[message.tool_call_id] = message.text;
    statuses[message.tool_call_id] = String(message.status);
  }
  return { received, answers, statuses };
}
