/**
 * AI SDK tools (`ai` 7). The SDK validates a tool call's input against the
 * tool's `inputSchema` before `execute` ever sees it, and a call that fails
 * (an enum value the model got wrong) never reaches `execute`. So the check
 * sits in the copy's `inputSchema`: a schema that gives the same JSON Schema
 * to the model and whose `validate` first puts the model's arguments through
 * the engine's seam, then validates what is to be sent:
 *
 * - `observe`: the model's arguments, through the tool's own validation.
 * - `normalise`: the rewritten arguments, through the tool's own validation;
 *   the tool runs with the canonical member.
 * - `reject`: valid as they are; the copy's `execute` then answers with the
 *   repair message as the tool's result (`{ type: 'text' }` for the model)
 *   without running the tool. A tool with its own `toModelOutput` (MCP tools
 *   from `@ai-sdk/mcp`) is bypassed for that result.
 *
 * The copy's `execute` runs the tool with the call marked as checked, so an
 * MCP client call inside is not counted again. The tool's own schema is read
 * through the SDK's `asSchema`: the loaded module's, or, for the explicit
 * entry point, `ai`'s, imported on first use.
 */
import { context, trace } from '@opentelemetry/api';
import type { CheckOutcome } from '@argcheck/core';
import { frameworkContext } from '../../kit/call-context.js';
import { toolCallIdOf } from '../../kit/tools-map.js';
import type { CheckedTool, Execute, ToolLike, ToolsKind } from '../../kit/tools-map.js';
import { AI_SDK_SCHEMA, jsonSchemaOf } from '../../kit/tool-schemas.js';
import type { AsSchema, Schema } from '../../kit/tool-schemas.js';
import { isObject } from '../../kit/values.js';

const AI_MODULE: string = 'ai';

type ModelOutput = (this: unknown, options: unknown) => unknown;

/** A call the seam rejected: its repair message, until the copy's `execute` answers it. */
class Rejected {
  constructor(readonly message: string) {}
}

function checkedTool(call: CheckedTool, schemaOf: () => Promise<Schema>): Record<string, unknown> {
  const { host, tool, name, scope } = call;
  /** The tool's own schema once resolved: later reads skip a promise. */
  let own: Schema | undefined;
  const ownSchema = (): Schema | Promise<Schema> =>
    own ??
    schemaOf().then((schema) => {
      own = schema;
      return schema;
    });
  const execute = tool.execute as Execute;
  /** Inputs the seam rejected, by the object the SDK hands `execute`. */
  const rejected = new WeakMap<object, Rejected>();
  /** Outcomes by the validated input the SDK hands `execute`, for its span (`spanOutcome`). */
  const outcomes = new WeakMap<object, CheckOutcome>();
  /** Tool calls answered with a repair message, for `toModelOutput`. */
  const answered = new Set<unknown>();

  /**
   * The arguments to validate and send, or the rejection. Checked outside the
   * span active now (the step's, if any): the outcome goes on the
   * `execute_tool` span when `execute` runs.
   */
  const decide = (value: unknown): { sent: unknown; outcome?: CheckOutcome; spans?: boolean } => {
    const engine = host.engine();
    if (engine === undefined) return { sent: value };
    const check = () =>
      engine.decide({
        tool: name,
        args: value,
        context: frameworkContext(undefined),
        scope,
        integration: 'ai_sdk',
      });
    const decision =
      trace.getActiveSpan() === undefined
        ? check()
        : context.with(trace.deleteSpan(context.active()), check);
    const { outcome } = decision;
    if (decision.answer !== undefined) return { sent: new Rejected(decision.answer), outcome };
    return { sent: decision.args, outcome, spans: engine.spanOutcome };
  };

  const onSpan = (input: unknown): void => {
    const outcome = isObject(input) ? outcomes.get(input) : undefined;
    if (outcome !== undefined) host.engine()?.outcomeOnSpan(outcome);
  };

  const inputSchema = {
    [AI_SDK_SCHEMA]: true,
    _type: undefined,
    // The SDK awaits it; a plain value once the tool's own schema is known.
    get jsonSchema() {
      return own === undefined ? schemaOf().then((schema) => schema.jsonSchema) : own.jsonSchema;
    },
    // Once the tool's own schema is known and its listing in use, as every
    // call after the first finds them, a call is decided at once: no async
    // function, and no turn of the microtask queue before the tool's own
    // validation (the SDK takes a result or a promise of one).
    validate(value: unknown): unknown {
      if (own !== undefined && call.listed() === undefined) return validateWith(own, value);
      return validateLater(value);
    },
  };

  /** The first calls: once the tool's own schema is read and its listing in use. */
  const validateLater = async (value: unknown): Promise<unknown> => {
    const schema = own ?? (await ownSchema());
    const listed = call.listed();
    if (listed !== undefined) await listed;
    return validateWith(schema, value);
  };

  /** Decide the call, then validate what is to be sent with the tool's own schema. */
  const validateWith = (schema: Schema, value: unknown): unknown => {
    const { sent, outcome, spans } = decide(value);
    if (sent instanceof Rejected && isObject(value)) {
      rejected.set(value, sent);
      if (outcome !== undefined && host.engine()?.spanOutcome === true) {
        outcomes.set(value, outcome);
      }
      return { success: true, value };
    }
    const toValidate = sent instanceof Rejected ? value : sent;
    if (schema.validate === undefined) return { success: true, value: toValidate };
    // Only the span needs the outcome kept for `execute`.
    if (spans !== true || outcome === undefined || outcome.findings.length === 0) {
      return schema.validate(toValidate);
    }
    return Promise.resolve(schema.validate(toValidate)).then((result: unknown) => {
      if (isObject(result) && result.success === true && isObject(result.value)) {
        outcomes.set(result.value, outcome);
      }
      return result;
    });
  };

  const checked: Record<string, unknown> = {
    inputSchema,
    execute(this: unknown, input: unknown, options?: unknown): unknown {
      onSpan(input);
      const rejection = isObject(input) ? rejected.get(input) : undefined;
      if (rejection === undefined) {
        return host.runMarked(name, input, () => execute.call(this, input, options));
      }
      rejected.delete(input as object);
      const id = toolCallIdOf(options);
      if (id !== undefined && typeof tool.toModelOutput === 'function') {
        if (answered.size >= 1024) answered.clear();
        answered.add(id);
      }
      return rejection.message;
    },
  };
  const toModelOutput = tool.toModelOutput;
  if (typeof toModelOutput === 'function') {
    checked.toModelOutput = function (this: unknown, options: unknown) {
      const id = isObject(options) ? options.toolCallId : undefined;
      if (id !== undefined && answered.delete(id) && isObject(options)) {
        return { type: 'text', value: String(options.output) };
      }
      return (toModelOutput as ModelOutput).call(this, options);
    };
  }
  return checked;
}

/**
 * The AI SDK kind of tools. `asSchema()` gives the loaded `ai` module's
 * `asSchema`, if auto-patching saw one; otherwise `ai` is imported.
 */
export function aiSdkTools(asSchema: () => AsSchema | undefined): ToolsKind {
  let imported: Promise<AsSchema> | undefined;
  const sdkAsSchema = (): Promise<AsSchema> => {
    const loaded = asSchema();
    if (loaded !== undefined) return Promise.resolve(loaded);
    // Named through a variable: `ai` is an optional peer, never a static import of this package.
    imported ??= import(AI_MODULE).then((ai: { asSchema: AsSchema }) => ai.asSchema);
    return imported;
  };
  return {
    integration: 'ai_sdk',
    origin: 'ai-sdk',
    inputSchema: (tool: ToolLike) => {
      const loaded = asSchema();
      if (loaded !== undefined) return jsonSchemaOf(tool.inputSchema, loaded);
      return sdkAsSchema().then((f) => jsonSchemaOf(tool.inputSchema, f));
    },
    checked: (call) => {
      let own: Promise<Schema> | undefined;
      return checkedTool(call, () => (own ??= sdkAsSchema().then((f) => f(call.tool.inputSchema))));
    },
  };
}
