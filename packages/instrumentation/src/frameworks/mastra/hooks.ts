/**
 * The explicit entry point for Mastra: a `beforeToolCall` hook (Mastra's
 * agent `hooks`, in the releases that have them) that checks each call. For
 * apps the auto-patch cannot reach (ESM without the loader hook).
 *
 * A hook cannot hand the tool other arguments: it sees the arguments object
 * the tool is about to be called with, Mastra's own per-call copy of the
 * model's input. `normalise` writes the canonical members into that object
 * (the top-level properties that changed, nothing else); `reject` answers
 * `{ proceed: false, output }` with Mastra's own failure shape. A call the
 * patched agent already checked passes through. Hooks cannot wrap the
 * tool's run, so an MCP client call inside is not marked as checked: with
 * only the hook in use, leave `mcp.enabled` as the app needs it knowing a
 * patched MCP client counts that call too.
 */
import { checkedHere } from '../../checked-calls.js';
import type { MastraToolCallAnswer, MastraToolCallContext, MastraToolHooks } from '../../types.js';
import { frameworkContext } from '../tools-map.js';
import type { FrameworkHost } from '../tools-map.js';
import { mastraRejection } from './tools.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function toolCallIdOf(ctx: MastraToolCallContext): unknown {
  return isObject(ctx.context) ? ctx.context.toolCallId : undefined;
}

/** `hooks` with a `beforeToolCall` that checks first, then runs the given one. */
export function mastraHooks<H extends MastraToolHooks>(
  host: FrameworkHost,
  hooks?: H,
): H & Required<Pick<MastraToolHooks, 'beforeToolCall'>> {
  const next = hooks?.beforeToolCall;
  type Answer = void | MastraToolCallAnswer | Promise<void | MastraToolCallAnswer>;
  const beforeToolCall = (ctx: MastraToolCallContext): Answer => {
    const proceed = () => (next === undefined ? undefined : next.call(hooks, ctx));
    try {
      const engine = host.engine();
      const input = ctx.input;
      if (engine === undefined || typeof ctx.toolName !== 'string' || checkedHere(input)) {
        return proceed();
      }
      const outcome = engine.check(ctx.toolName, input, frameworkContext(toolCallIdOf(ctx)));
      if (outcome.action === 'reject' && typeof outcome.repairMessage === 'string') {
        return { proceed: false, output: mastraRejection(outcome.repairMessage) };
      }
      if (outcome.action === 'call_rewritten' && isObject(input) && isObject(outcome.args)) {
        for (const [key, value] of Object.entries(outcome.args)) {
          if (input[key] !== value) input[key] = value;
        }
      }
    } catch (error) {
      host.diag.debug('argcheck: Mastra beforeToolCall check failed; the call goes on', error);
    }
    return proceed();
  };
  return { ...(hooks as H), beforeToolCall };
}
