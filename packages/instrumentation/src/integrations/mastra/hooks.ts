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
 * patched agent already checked is the same call and passes through
 * (`engine/call-marks.ts`). Hooks cannot wrap the tool's run, so an MCP
 * client call inside is not marked as checked: with only the hook in use, a
 * patched MCP client counts that call too. `inst.wrapMastraTools(tools)`
 * wraps the run and counts it once (docs/frameworks.md).
 */
import type { Host } from '../../kit/host.js';
import { frameworkContext } from '../../kit/call-context.js';
import { isObject } from '../../kit/values.js';
import type { MastraToolCallAnswer, MastraToolCallContext, MastraToolHooks } from '../../types.js';
import { mastraRejection } from './tools.js';

function toolCallIdOf(ctx: MastraToolCallContext): unknown {
  return isObject(ctx.context) ? ctx.context.toolCallId : undefined;
}

/** `hooks` with a `beforeToolCall` that checks first, then runs the given one. */
export function mastraHooks<H extends MastraToolHooks>(
  host: Host,
  hooks?: H,
): H & Required<Pick<MastraToolHooks, 'beforeToolCall'>> {
  host.seen('mastra');
  const next = hooks?.beforeToolCall;
  type Answer = void | MastraToolCallAnswer | Promise<void | MastraToolCallAnswer>;
  const beforeToolCall = (ctx: MastraToolCallContext): Answer => {
    const proceed = () => (next === undefined ? undefined : next.call(hooks, ctx));
    try {
      const engine = host.engine();
      const input = ctx.input;
      if (engine === undefined || typeof ctx.toolName !== 'string') return proceed();
      const decision = engine.decide({
        tool: ctx.toolName,
        args: input,
        context: frameworkContext(toolCallIdOf(ctx)),
        integration: 'mastra',
      });
      if (decision.answer !== undefined) {
        return { proceed: false, output: mastraRejection(decision.answer) };
      }
      const rewritten = decision.args;
      if (rewritten !== input && isObject(input) && isObject(rewritten)) {
        for (const [key, value] of Object.entries(rewritten)) {
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
