import type { InstrumentationConfig } from '@opentelemetry/instrumentation';
import type {
  CheckContext,
  CheckedArguments,
  CheckMode,
  Clock,
  RepairDisclosure,
  ValueSetSource,
} from '@argcheck/core';

/** Where an emitted value was found, for `redactValue`. Names come from configuration or a tool catalog. */
export interface ValueLocation {
  tool: string;
  argument: string;
  set: string;
}

/**
 * Rewrite or drop an emitted value before it is written to a log record.
 * Receives the value as text (JSON text for non-strings), before truncation.
 * Return `undefined` to leave the value out of the record.
 */
export type RedactValue = (value: string, where: ValueLocation) => string | undefined;

/** MCP client integration. */
export interface McpOptions {
  /**
   * Patch `Client.prototype.callTool` of `@modelcontextprotocol/sdk` (1.x) and
   * `@modelcontextprotocol/client` (2.x) when they are loaded. Read once, at construction.
   * @default true
   */
  enabled?: boolean;
  /**
   * Check every string `enum` in a server's tool input schemas against the
   * catalog's own members, unless the configuration already names the argument.
   * @default true
   */
  deriveValueSets?: boolean;
  /**
   * Most arguments derived from tool catalogs that are checked, in total over
   * the life of the instrumentation, in arguments. The rest are not checked,
   * and that is reported once through the diagnostics logger. It bounds the
   * number of metric series a catalog can create.
   * @default 500
   */
  maxCheckedArguments?: number;
}

/** Agent framework integrations (AI SDK, OpenAI Agents, LangChain.js, Mastra, Claude Agent SDK). */
export interface FrameworkOptions {
  /**
   * Patch the supported agent frameworks when they are loaded, so their tool
   * calls go through the check. Read once, at construction. The explicit
   * entry points work whatever this says.
   * @default true
   */
  enabled?: boolean;
  /**
   * Check every string `enum` in a framework tool's input schema against the
   * schema's own members, unless the configuration already names the
   * argument. Derived arguments share the `mcp.maxCheckedArguments` budget.
   * @default true
   */
  deriveValueSets?: boolean;
}

/**
 * Attribution: which model, provider, agent, prompt version and tool
 * definition produced each call, as attributes of the call-level series
 * (docs/decisions/0027-attribution.md). Frameworks that know the model say
 * it; these fill in for calls whose integration does not (a dispatcher, an
 * MCP client outside a framework run).
 */
export interface AttributionOptions {
  /** `false`: no attribution attributes on any series. @default true */
  enabled?: boolean;
  /**
   * Distinct values per attribute that get series of their own over the
   * instrumentation's life; later ones count as `_other`.
   * @default 10
   */
  maxValues?: number;
  /** `gen_ai.request.model` of calls no framework run names one for. */
  model?: string;
  /** `gen_ai.provider.name` of calls no framework run names one for. */
  provider?: string;
  /** `gen_ai.agent.name` of calls no framework run names one for. */
  agent?: string;
  /**
   * `gen_ai.prompt.version`: a fixed value, or a function read at each call
   * (your request-scoped storage). Unset: the OpenTelemetry baggage entry
   * `gen_ai.prompt.version` — read when a run starts (a framework run,
   * `inst.withAttribution`) and at each MCP call outside one; `inst.check`
   * takes it from its context (`promptVersion`) instead.
   */
  promptVersion?: string | (() => string | undefined);
  /** `tool_definition`, a hash of each tool's description and input schema as listed. @default true */
  toolDefinition?: boolean;
}

/** What `inst.withAttribution` says produced the calls made inside it. */
export interface CallAttribution {
  model?: string;
  provider?: string;
  agent?: string;
  promptVersion?: string;
}

export interface ToolArgumentInstrumentationConfig extends InstrumentationConfig {
  /**
   * Value sets by name, each from its owner (`httpValueSet`, `functionValueSet`,
   * `staticValueSet` from `@argcheck/core`). The instrumentation builds its own
   * provider over them, available as `inst.valueSets`.
   * @default {}
   */
  valueSets?: Readonly<Record<string, ValueSetSource>>;
  /**
   * Arguments to check: `{ [tool]: { [argumentPath]: setName } }`. Paths are
   * dotted, `[]` marks array elements (`items[].warehouse_code`).
   * @default {}
   */
  checkedArguments?: CheckedArguments;
  /**
   * `observe` measures only; `normalise` also rewrites case and format variants
   * to the member; `reject` also refuses any other mismatch with a repair message.
   * @default 'observe'
   */
  mode?: CheckMode;
  /**
   * What a `reject` mode repair message may say about a set's members, by set
   * name (a configured set, or a derived one such as
   * `mcp:<server>/<tool>.<argument>`, a server or tool name holding `/`, `.`
   * or `"` written as a JSON string); a set not named: `'list'`. The repair
   * message is read by the model and by whoever prompts it, so a private
   * set (active user handles) should be `'none'`: `'list'` names every member
   * of a set of up to 20 and the five closest of a larger one, `'closest'` the
   * closest members and the size, `'none'` only the set's name and size.
   */
  repairDisclosure?: Readonly<Record<string, RepairDisclosure>>;
  /** How long a fetched set is fresh, in milliseconds. @default 300_000 */
  ttlMs?: number;
  /**
   * A load (request, body, parse) slower than this is aborted and counted as
   * `timeout`, in milliseconds; compiling the set afterwards is not included.
   * @default 2_000
   */
  fetchTimeoutMs?: number;
  /**
   * Each refresh of a set starts up to this fraction of `ttlMs` early, at a
   * random point, so processes started together do not refresh together.
   * In [0, 0.5]; `0` refreshes exactly at the TTL. The set stays fresh until
   * the TTL either way.
   * @default 0.1
   */
  refreshJitter?: number;
  /**
   * How long past the TTL a set is still served (stale) before checks report it
   * unavailable with reason `expired`, in milliseconds.
   * @default 3_600_000
   */
  maxStaleMs?: number;
  /**
   * Fraction of checked argument values written as log records, in [0, 1].
   * `0` turns log records off.
   * @default 1/50
   */
  logSampleRatio?: number;
  /**
   * Put the emitted value on sampled log records. The environment variable
   * `ARGCHECK_CAPTURE_VALUES=false` turns capture off whatever this says, so
   * that an operator can stop values (which may carry user data) from leaving
   * the process without a code change.
   * @default true
   */
  captureValues?: boolean;
  /** Longest value written to a log record, in UTF-16 code units; longer values are cut and flagged. @default 256 */
  maxValueLength?: number;
  /** Applied to every captured value before truncation. @default none */
  redactValue?: RedactValue;
  /**
   * The conversation a call belongs to, for log records, when the call's own
   * context does not say (for example read from your request-scoped storage).
   * Called only when a record is written.
   * @default none
   */
  conversationId?: (ctx: CheckContext) => string | undefined;
  /** Randomness in [0, 1) for log sampling and refresh jitter. @default Math.random */
  random?: () => number;
  /** Time and timers for the value-set provider. @default the system clock */
  clock?: Clock;
  /**
   * Write each check's outcome on the span it runs in, when that span is
   * recording (the `execute_tool` span of a GenAI instrumentation, the AI
   * SDK's telemetry, your own): a `tool_argument_value_check` event per
   * checked argument (no emitted value), and `error.type` =
   * `tool_argument_rejected` on a rejected call. argcheck starts no span.
   * @default false
   */
  spanOutcome?: boolean;
  /** Which model, provider, agent, prompt version and tool definition produced each call. */
  attribution?: AttributionOptions | false;
  /**
   * Reject mode: how long a rejected argument waits for the model's next call
   * of the tool before it counts as `abandoned`, in milliseconds.
   * @default 300_000
   */
  repairWindowMs?: number;
  /** MCP client integration. */
  mcp?: McpOptions;
  /** Agent framework integrations. */
  frameworks?: FrameworkOptions;
}

/** What argcheck's OpenAI Agents guardrail answers, as `ToolGuardrailFunctionOutputFactory` builds it. */
export type AgentsGuardrailOutput =
  { behavior: { type: 'allow' } } | { behavior: { type: 'rejectContent'; message: string } };

/**
 * A tool input guardrail of `@openai/agents` (the shape
 * `defineToolInputGuardrail` returns), from `inst.openAIAgentsGuardrail()`:
 * put it in a tool's `inputGuardrails`. It rejects with the repair message
 * (`rejectContent`) in `reject` mode and never throws.
 */
export interface AgentsToolInputGuardrail {
  readonly type: 'tool_input';
  /** `argcheck`. */
  readonly name: string;
  run(data: { agent?: unknown; toolCall: unknown }): Promise<AgentsGuardrailOutput>;
}

/** What Mastra passes a tool hook (`@mastra/core` `ToolHookContext`). */
export interface MastraToolCallContext {
  /** The tool's name as the model calls it. */
  toolName: string;
  /** The arguments the tool is about to be called with. */
  input: unknown;
  /** The tool's execution context (`toolCallId`, …). */
  context: unknown;
  metadata?: Record<string, unknown>;
}

/** A `beforeToolCall` answer that skips the tool: `output` becomes its result. */
export interface MastraToolCallAnswer {
  proceed: false;
  output: unknown;
}

/** Mastra's agent tool hooks (`@mastra/core` `ToolHooks`), as `inst.mastraHooks()` composes them. */
export interface MastraToolHooks {
  beforeToolCall?: (
    ctx: MastraToolCallContext,
  ) => void | MastraToolCallAnswer | Promise<void | MastraToolCallAnswer>;
  afterToolCall?: (
    ctx: MastraToolCallContext & { output?: unknown; error?: unknown },
  ) => void | Promise<void>;
}

/**
 * What argcheck's Claude Agent SDK `PreToolUse` hook answers (the SDK's
 * `SyncHookJSONOutput`): nothing (`{}`: the call goes on as the model made
 * it), `updatedInput` (`normalise`: the call goes on with the canonical
 * members, through the application's own permission rules), or a deny with
 * the repair message as its reason (`reject`).
 */
export interface ClaudeAgentHookOutput {
  hookSpecificOutput?: {
    hookEventName: 'PreToolUse';
    permissionDecision?: 'deny';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
  };
}

/** The `PreToolUse` matcher argcheck puts first in a query's `options.hooks` (the SDK's `HookCallbackMatcher`). */
export interface ClaudeAgentHookMatcher {
  /** `mcp__.*`: the MCP tools, the ones an application defines or connects. */
  matcher: string;
  hooks: [
    (input: unknown, toolUseID: unknown, options?: unknown) => Promise<ClaudeAgentHookOutput>,
  ];
}
