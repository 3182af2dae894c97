import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { MeterProvider } from '@opentelemetry/api';
import type { CheckContext, CheckOutcome, ValueSetEvent, ValueSetProvider } from '@argcheck/core';
import type { ToolListings } from './catalog/derived-sets.js';
import { resolveConfig } from './config/resolve-config.js';
import { createEngine } from './engine/engine.js';
import type { Engine } from './engine/engine.js';
import { withRun } from './engine/run-scope.js';
import { aiSdkModules, wrapAiSdkTools } from './integrations/ai-sdk/module.js';
import { claudeAgentModules } from './integrations/claude-agent/module.js';
import { claudeAgentOptions } from './integrations/claude-agent/options.js';
import { instrumentLangChainTool, langChainModules } from './integrations/langchain/module.js';
import { mastraHooks } from './integrations/mastra/hooks.js';
import { mastraModules } from './integrations/mastra/module.js';
import { wrapMastraTools } from './integrations/mastra/tools.js';
import { instrumentMcpClient, mcpModules } from './integrations/mcp/module.js';
import { agentsToolGuardrail } from './integrations/openai-agents/guardrail.js';
import { openAiAgentsModules } from './integrations/openai-agents/module.js';
import { createHost } from './kit/host.js';
import type { Host } from './kit/host.js';
import { byAbsolutePath, hookByPath } from './kit/path-hooks.js';
import type { PathHooks } from './kit/path-hooks.js';
import { patchLoadedModules, warnWithoutLoaderHook } from './kit/unreached-modules.js';
import type { SpecDefinitions } from './kit/unreached-modules.js';
import { moduleDefinitions } from './kit/module-spec.js';
import type { ModuleSpec } from './kit/module-spec.js';
import { createMetrics } from './telemetry/metrics.js';
import { warnIfProcessesIndistinguishable } from './telemetry/resource-identity.js';
import type { Metrics } from './telemetry/metrics.js';
import { createSeriesRegistry, MAX_CALL_TOOLS } from './telemetry/series.js';
import type { SeriesRegistry } from './telemetry/series.js';
import type {
  CallAttribution,
  AgentsToolInputGuardrail,
  MastraToolHooks,
  ToolArgumentInstrumentationConfig,
} from './types.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';

/** The string fields of what the application gave, read once; anything else is left out. Never throws. */
function readAttribution(given: unknown): CallAttribution {
  const read: CallAttribution = {};
  try {
    if (typeof given !== 'object' || given === null) return read;
    const fields = given as Record<string, unknown>;
    for (const key of ['model', 'provider', 'agent', 'promptVersion'] as const) {
      const value = fields[key];
      if (typeof value === 'string' && value.length > 0) read[key] = value;
    }
  } catch {
    // A getter that throws names nothing.
  }
  return read;
}

type LoggerProvider = Parameters<InstrumentationBase['setLoggerProvider']>[0];

/**
 * Checks tool-call arguments against live value sets and records
 * cardinality-safe counters and sampled log records.
 *
 * Every call goes through one engine (`engine/engine.ts`): `check()` for a
 * dispatcher you own, and the integrations `init()` lists, each reaching
 * the engine through this instance's host (`kit/host.ts`).
 */
export class ToolArgumentInstrumentation extends InstrumentationBase<ToolArgumentInstrumentationConfig> {
  // `declare`: InstrumentationBase calls init(), setConfig(), enable() and
  // _updateMetricInstruments() from its constructor; initialised fields would
  // be reset after it returns.
  declare private engine: Engine | undefined;
  declare private registry: SeriesRegistry | undefined;
  declare private listings: ToolListings | undefined;
  declare private metrics: Metrics | undefined;
  declare private budgetReported: boolean | undefined;
  declare private deriveFrameworkSets: boolean | undefined;
  declare private kit: Host | undefined;
  declare private specs: readonly SpecDefinitions[] | undefined;
  declare private loadChecked: boolean | undefined;
  declare private byPath: PathHooks | undefined;

  /** @throws ArgcheckConfigError for a configuration mistake (stable `code`). */
  constructor(config: ToolArgumentInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
    try {
      this.engine = this.buildEngine(this.getConfig(), undefined);
      if (this.isEnabled()) this.engine.start();
    } catch (error) {
      // `super()` enabled it: an instance the caller never gets must not stay patched.
      this.disable();
      this.byPath?.close();
      throw error;
    }
    this.series().activate('dispatcher');
    this._updateMetricInstruments();
  }

  /** Check one call's arguments and record its telemetry. Synchronous; never throws. */
  check(tool: string, args: unknown, ctx?: CheckContext & CallAttribution): CheckOutcome {
    return (this.engine as Engine).check(tool, args, ctx);
  }

  /**
   * Run `fn` with what produced the tool calls made inside it — checked
   * through `check()`, an MCP client or a framework — as their attribution
   * (`gen_ai.request.model`, …), for those whose integration does not know
   * it. Its calls are also one run for the repair outcome (reject mode):
   * a rejected call's retry is looked for among them, and what is still
   * waiting when `fn`'s promise settles counts as `abandoned`. Returns what
   * `fn` returns.
   */
  withAttribution<T>(attribution: CallAttribution, fn: () => T): T {
    return withRun(readAttribution(attribution), fn);
  }

  /**
   * Settles when every configured value set has had its first fetch, and
   * what argcheck started in the background has settled (sets derived from
   * tool listings, a listing an MCP call started). Never rejects.
   */
  async ready(): Promise<void> {
    await Promise.all([(this.engine as Engine).ready(), this.host().settled()]);
    // A listing that settled may have started loading derived sets.
    await (this.engine as Engine).ready();
  }

  /** The provider over the configured value sets (`status()`, `refresh(name)`). */
  get valueSets(): ValueSetProvider {
    return (this.engine as Engine).valueSets;
  }

  /**
   * Check the calls of an MCP client that auto-patching cannot reach (ESM
   * without loader hooks). A client patched both ways counts each call once.
   */
  instrumentMcpClient(client: object): void {
    instrumentMcpClient(this.host(), client);
  }

  /**
   * OpenAI Agents SDK: a tool input guardrail that checks each call of the
   * tools it is added to (`inputGuardrails: [inst.openAIAgentsGuardrail()]`),
   * for applications the patch cannot reach. A call also seen by the patch
   * counts once.
   */
  openAIAgentsGuardrail(): AgentsToolInputGuardrail {
    return agentsToolGuardrail(this.host());
  }

  /**
   * LangChain.js: check the calls of one tool (any `StructuredTool`, for
   * example one given to LangGraph's `ToolNode`) that the patch cannot reach.
   * Returns the tool itself. A tool patched both ways counts each call once.
   */
  instrumentLangChainTool<T extends object>(tool: T): T {
    return instrumentLangChainTool(this.host(), tool);
  }

  /**
   * The AI SDK's `tools` with every call checked, for `generateText`,
   * `streamText` or `new ToolLoopAgent({ tools })` where auto-patching cannot
   * reach `ai` (ESM without the loader hook). Returns a new map of copies; the
   * tools given are not changed. Checked both ways, a call counts once.
   */
  wrapAiSdkTools<T>(tools: T): T {
    return wrapAiSdkTools(this.host(), tools);
  }

  /**
   * Mastra agent `tools` with every call checked, for
   * `new Agent({ tools: inst.wrapMastraTools(tools) })` where auto-patching
   * cannot reach `@mastra/core`. Each tool is a copy whose run is marked as
   * checked, so an MCP call it makes with the same arguments counts once.
   * Returns a new map; the tools given are not changed. Checked both ways, a
   * call counts once.
   */
  wrapMastraTools<T>(tools: T): T {
    return wrapMastraTools(this.host(), tools);
  }

  /**
   * Mastra agent `hooks` whose `beforeToolCall` checks each tool call, then
   * runs the one in `hooks`, if any: `new Agent({ hooks: inst.mastraHooks() })`.
   * For Mastra releases with tool hooks, where auto-patching cannot reach
   * `@mastra/core`. Checked both ways, a call counts once; an MCP call the
   * tool makes inside is counted again (a hook cannot wrap the run: use
   * `wrapMastraTools` for MCP-backed tools).
   */
  mastraHooks<H extends MastraToolHooks>(
    hooks?: H,
  ): H & Required<Pick<MastraToolHooks, 'beforeToolCall'>> {
    return mastraHooks(this.host(), hooks);
  }

  /**
   * Claude Agent SDK: a copy of a session's `options` whose
   * `hooks.PreToolUse` starts with argcheck's hook, which checks each MCP
   * tool call of the session (`query({ prompt, options:
   * inst.claudeAgentOptions(options) })`, `startup`, `prewarm`), for
   * applications the patch cannot reach. Your own hooks stay as they are.
   * The options given are not changed; options that already carry this
   * instance's hook come back as they are, so a call also seen by the patch
   * counts once.
   */
  claudeAgentOptions<O extends object = Record<string, unknown>>(options?: O): O {
    return claudeAgentOptions(this.host(), options) as O;
  }

  /**
   * Stop background refreshes and fetches in flight, and stop listening for
   * the modules hooked by absolute path (kit/path-hooks.ts): the end of this
   * instance's life.
   */
  close(): void {
    this.engine?.close();
    this.byPath?.close();
  }

  /** Unpatch everything this instance patched and switch off what it wrapped. */
  override disable(): void {
    super.disable();
    this.byPath?.disable();
  }

  /**
   * Patches the supported modules loaded since it was disabled, and switches
   * on again everything this instance wrapped, explicit entry points
   * included. Modules `require` loaded before are patched in place; the first
   * time, an ES module application without the loader hook is told
   * (diagnostics, warn) which modules go unchecked (`kit/unreached-modules.ts`).
   */
  override enable(): void {
    super.enable();
    this.byPath?.enable();
    // The configured sets load from here on, so the first checks already have them.
    this.engine?.start();
    const entries = this.specs ?? [];
    patchLoadedModules(entries, this._diag);
    if (this.loadChecked === true) return;
    this.loadChecked = true;
    // Only the ESM build can import through the loader; the CommonJS build has a require hook.
    if (typeof __filename !== 'string') {
      this.host().track(
        warnWithoutLoaderHook(
          entries.map((e) => e.spec),
          this._diag,
          () => import('node:path'),
        ),
      );
    }
  }

  override setConfig(config: ToolArgumentInstrumentationConfig = {}): void {
    // Before the constructor has run its course there is nothing to rebuild.
    if (this.engine === undefined) {
      super.setConfig(config);
      return;
    }
    const previous = this.engine;
    // Sets whose source did not change carry on from what the previous engine holds.
    const next = this.buildEngine(config, previous.valueSets);
    super.setConfig(config);
    this.engine = next;
    previous.close();
    if (this.isEnabled()) next.start();
  }

  override setMeterProvider(meterProvider: MeterProvider): void {
    try {
      super.setMeterProvider(meterProvider);
      warnIfProcessesIndistinguishable(meterProvider, this._diag);
    } catch (error) {
      this._diag.warn('the meter provider failed; argcheck metrics are off', error);
    }
  }

  override setLoggerProvider(loggerProvider: LoggerProvider): void {
    try {
      super.setLoggerProvider(loggerProvider);
    } catch (error) {
      this._diag.warn('the logger provider failed; argcheck log records are off', error);
    }
  }

  /**
   * What is patched, when it is loaded after registration: the MCP clients
   * (`integrations/mcp/module.ts`) unless `mcp.enabled` is false, and the
   * agent frameworks — the AI SDK, OpenAI Agents, LangChain.js, Mastra, the
   * Claude Agent SDK (`integrations/<framework>/module.ts`) — unless `frameworks.enabled` is
   * false. docs/frameworks.md and docs/mcp.md say what each patches.
   *
   * Runs inside `super()`: the wrappers read the engine only when called.
   */
  protected override init(): InstrumentationModuleDefinition[] {
    const host = this.host();
    const config = this.getConfig();
    const specs: ModuleSpec[] = [
      ...((config.mcp?.enabled ?? true) ? mcpModules(host) : []),
      ...((config.frameworks?.enabled ?? true)
        ? [
            ...aiSdkModules(host),
            ...openAiAgentsModules(host),
            ...langChainModules(host),
            ...mastraModules(host),
            ...claudeAgentModules(host),
          ]
        : []),
    ];
    const entries = specs.map((spec) => ({ spec, definitions: moduleDefinitions(spec, host) }));
    this.specs = entries;
    const definitions = entries.flatMap((e) => e.definitions);
    // Hooks by absolute path are shared by every instance (kit/path-hooks.ts).
    this.byPath = hookByPath(definitions.filter(byAbsolutePath), () => this.isEnabled());
    return definitions.filter((d) => !byAbsolutePath(d));
  }

  /** This instance's host: made on first use (inside `super()` for `init()`). */
  private host(): Host {
    if (this.kit === undefined) {
      this.kit = createHost({
        engine: () => (this.isEnabled() ? this.engine : undefined),
        diag: () => this._diag,
        deriveFrameworkSets: () => this.deriveFrameworkSets ?? true,
        seen: (integration) => this.series().activate(integration),
      });
    }
    return this.kit;
  }

  protected override _updateMetricInstruments(): void {
    if (this.engine === undefined) return;
    this.metrics?.dispose();
    this.metrics = undefined;
    try {
      this.metrics = createMetrics(
        this.meter,
        {
          registry: this.series(),
          statuses: () => this.engine?.statuses() ?? [],
          beforeCollect: () => this.engine?.sweep(),
        },
        this._diag,
      );
    } catch (error) {
      this._diag.warn('creating argcheck instruments failed; metrics are off', error);
    }
  }

  private buildEngine(
    config: ToolArgumentInstrumentationConfig,
    replaces: ValueSetProvider | undefined,
  ): Engine {
    const resolved = resolveConfig(config);
    this.listings ??= new WeakMap();
    this.deriveFrameworkSets = resolved.frameworks.deriveValueSets;
    return createEngine(resolved, {
      owner: this.host(),
      registry: this.series(resolved.attribution.maxValues),
      listings: this.listings,
      replaces,
      logger: () => this.logger,
      diag: this._diag,
      onEvent: (event: ValueSetEvent) => this.metrics?.fetched(event),
      onBudgetSpent: (unchecked) => {
        if (this.budgetReported) return;
        this.budgetReported = true;
        this._diag.warn(
          `mcp.maxCheckedArguments (${resolved.mcp.maxCheckedArguments}) reached: ` +
            `${unchecked} argument(s) derived from tool catalogs are not checked, ` +
            'and further ones will not be either. Name the arguments that matter in ' +
            'checkedArguments, or raise mcp.maxCheckedArguments.',
        );
      },
    });
  }

  /** `maxValues`: `attribution.maxValues` of the first configuration; the registry keeps it. */
  private series(maxValues = 10): SeriesRegistry {
    if (this.registry === undefined) {
      const registry = createSeriesRegistry({ maxValues, diag: () => this._diag });
      registry.onCallToolsSpent = () =>
        this._diag.warn(
          `argcheck: ${MAX_CALL_TOOLS} tool names from catalogs have tool_argument_call ` +
            `series already; calls of further ones count under tool="_other".`,
        );
      this.registry = registry;
    }
    return this.registry;
  }
}
