/**
 * A scripted model for the AI SDK's own mock (`MockLanguageModelV4` from
 * `ai/test`): the first step calls `refund_order` with the given reason code,
 * the next answers with text. Keeps every prompt, so a test can read what the
 * model saw on its next turn.
 */
import type { MockLanguageModelV4 } from 'ai/test';

export interface RefundModel {
  readonly model: MockLanguageModelV4;
  /** The prompt of each model call, in order. */
  readonly prompts: unknown[][];
}

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

export function toolCallArgs(reasonCode: string): string {
  return JSON.stringify({ order_id: 'o-1', reason_code: reasonCode });
}

/**
 * `spec`: the language-model specification the mock implements. Mastra 1.x
 * before the AI SDK 7 line accepts `v3` only; the AI SDK and later Mastra take both.
 */
export async function refundModel(
  reasonCode: string,
  toolName = 'refund_order',
  spec: 'v3' | 'v4' = 'v4',
  /** The model's `provider` and `modelId`, as a real provider's model object carries them. */
  ids: { provider?: string; modelId?: string } = {},
): Promise<RefundModel> {
  const { MockLanguageModelV3, MockLanguageModelV4, convertArrayToReadableStream } =
    await import('ai/test');
  const Mock = (
    spec === 'v3' ? MockLanguageModelV3 : MockLanguageModelV4
  ) as typeof MockLanguageModelV4;
  const prompts: unknown[][] = [];
  let step = 0;
  const next = (prompt: unknown[]) => {
    prompts.push(prompt);
    return step++ === 0;
  };
  // The mock's result types ask for every usage field; the SDK reads what is here.
  const model = new Mock({
    ...ids,
    doGenerate: ((options: { prompt: unknown }) => {
      const first = next(options.prompt as unknown[]);
      return Promise.resolve(
        first
          ? {
              content: [
                {
                  type: 'tool-call' as const,
                  toolCallId: 'call-1',
                  toolName,
                  input: toolCallArgs(reasonCode),
                },
              ],
              finishReason: { unified: 'tool-calls' as const, raw: undefined },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text' as const, text: 'done' }],
              finishReason: { unified: 'stop' as const, raw: undefined },
              usage,
              warnings: [],
            },
      );
    }) as never,
    doStream: ((options: { prompt: unknown }) => {
      const first = next(options.prompt as unknown[]);
      const finish = (unified: 'tool-calls' | 'stop') => ({
        type: 'finish' as const,
        finishReason: { unified, raw: undefined },
        usage,
      });
      const parts = first
        ? [
            // The arguments arrive split across chunks, as providers stream them.
            { type: 'tool-input-start' as const, id: 'call-1', toolName },
            { type: 'tool-input-delta' as const, id: 'call-1', delta: '{"order_id":"o-1",' },
            {
              type: 'tool-input-delta' as const,
              id: 'call-1',
              delta: `"reason_code":${JSON.stringify(reasonCode)}}`,
            },
            { type: 'tool-input-end' as const, id: 'call-1' },
            {
              type: 'tool-call' as const,
              toolCallId: 'call-1',
              toolName,
              input: toolCallArgs(reasonCode),
            },
            finish('tool-calls'),
          ]
        : [
            { type: 'text-start' as const, id: 't' },
            { type: 'text-delta' as const, id: 't', delta: 'done' },
            { type: 'text-end' as const, id: 't' },
            finish('stop'),
          ];
      return Promise.resolve({ stream: convertArrayToReadableStream<unknown>(parts) });
    }) as never,
  });
  return { model, prompts };
}

/** The output of the tool result the model saw on its second turn. */
export function toolResultSeen(prompts: readonly unknown[][]): unknown {
  const turn = prompts[1] ?? [];
  for (const message of turn) {
    const m = message as { role?: string; content?: { type?: string; output?: unknown }[] };
    if (m.role !== 'tool') continue;
    const part = m.content?.find((p) => p.type === 'tool-result');
    if (part !== undefined) return part.output;
  }
  return undefined;
}
