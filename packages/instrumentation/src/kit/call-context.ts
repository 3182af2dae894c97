import { context, propagation } from '@opentelemetry/api';
import type { CheckContext } from '@argcheck/core';

/** OpenTelemetry GenAI semantic-convention keys, used in `_meta` and in baggage. */
export const CONVERSATION_ID_KEY = 'gen_ai.conversation.id';
export const TOOL_CALL_ID_KEY = 'gen_ai.tool.call.id';
/** SEP-414: W3C Baggage carried in a request's `_meta`. */
const BAGGAGE_META_KEY = 'baggage';
/** W3C Baggage's own limit on the whole header. */
const MAX_BAGGAGE_LENGTH = 8192;

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The value of `key` in a W3C Baggage string (`k1=v1;prop,k2=v2`), percent-decoded. */
export function baggageValue(header: unknown, key: string): string | undefined {
  if (typeof header !== 'string' || header.length > MAX_BAGGAGE_LENGTH) return undefined;
  for (const member of header.split(',')) {
    const pair = member.split(';', 1)[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== key) continue;
    try {
      return nonEmpty(decodeURIComponent(pair.slice(eq + 1).trim()));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function activeBaggageValue(key: string): string | undefined {
  return nonEmpty(propagation.getBaggage(context.active())?.getEntry(key)?.value);
}

/**
 * The check context of one `tools/call`. Neither SDK line's request options
 * carry a conversation id, so the request's own `_meta` comes first: the
 * `gen_ai.conversation.id` key, then the same key inside `_meta.baggage`; then
 * the active OpenTelemetry baggage. The user's `conversationId` option comes
 * last, and is applied by the engine only when it writes a log record
 * (`logs/check-log.ts`), so it does not run on every call.
 */
export function callContext(params: Readonly<Record<string, unknown>>): CheckContext {
  const meta = params._meta;
  const fields =
    typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
  const ctx: CheckContext = {};
  const toolCallId = nonEmpty(fields?.[TOOL_CALL_ID_KEY]);
  if (toolCallId !== undefined) ctx.toolCallId = toolCallId;
  const conversationId =
    nonEmpty(fields?.[CONVERSATION_ID_KEY]) ??
    baggageValue(fields?.[BAGGAGE_META_KEY], CONVERSATION_ID_KEY) ??
    activeBaggageValue(CONVERSATION_ID_KEY);
  if (conversationId !== undefined) ctx.conversationId = conversationId;
  return ctx;
}

/**
 * The context of a framework call, read only when a log record is written:
 * the framework's call id, and the conversation id from the active baggage.
 */
export function frameworkContext(toolCallId: unknown): () => CheckContext {
  return () =>
    callContext(
      typeof toolCallId === 'string' ? { _meta: { [TOOL_CALL_ID_KEY]: toolCallId } } : {},
    );
}
