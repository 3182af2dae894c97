import { parse } from 'node:path';
import {
  InstrumentationBase,
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import type { MeterProvider } from '@opentelemetry/api';
import type { CheckContext, CheckOutcome, ValueSetEvent, ValueSetProvider } from '@argcheck/core';
import type { ToolListings } from './catalog/derived-sets.js';
import { resolveConfig } from './config/resolve-config.js';
import { createEngine } from './engine.js';
import { aiSdkModules } from './frameworks/ai-sdk/patch.js';
import { aiSdkTools } from './frameworks/ai-sdk/tools.js';
import { mastraHooks } from './frameworks/mastra/hooks.js';
import { mastraModules } from './frameworks/mastra/patch.js';
import type { PatchHost } from './frameworks/module-support.js';
import { checkTools, createToolsState } from './frameworks/tools-map.js';
import type { Engine } from './engine.js';
import {
  clientPrototype,
  patchCallTool,
  patchCallToolStream,
  patchListTools,
  tasksOf,
  tasksPrototype,
} from './mcp/patches.js';
import { findSdkInstalls, SDK_CLIENT_FILES, SDK_PACKAGE } from './mcp/sdk-location.js';
import { frameworkDefinition } from './frameworks/framework-module.js';
import type { FrameworkHost } from './frameworks/framework-tools.js';
import { isObject } from './frameworks/framework-tools.js';
import { patchToolCall } from './frameworks/langchain/call-patch.js';
import { langChainModule } from './frameworks/langchain/module.js';
import { agentsToolGuardrail } from './frameworks/openai-agents/guardrail.js';
import { openAiAgentsModule } from './frameworks/openai-agents/module.js';
import { createMetrics } from './telemetry/metrics.js';
import { warnIfProcessesIndistinguishable } from './telemetry/resource-identity.js';
import type { Metrics } from './telemetry/metrics.js';
import { createSeriesRegistry } from './telemetry/series.js';
import type { SeriesRegistry } from './telemetry/series.js';
import type {
  AgentsToolInputGuardrail,
  MastraToolHooks,
  ToolArgumentInstrumentationConfig,
} from './types.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version.js';
import { unwrapMethod, wrapInstanceMethod, wrapMethod } from './wrapping.js';
import type { Patch, Shimmer } from './wrapping.js';

type LoggerProvider = Parameters<InstrumentationBase['setLoggerProvider']>[0];

const MCP_CLIENT_PACKAGE = '@modelcontextprotocol/client';
const MCP_CLIENT_VERSIONS = ['>=2.0.0 <3'];
const MCP_SDK_VERSIONS = ['>=1.10.0 <2'];
/** The explicit entry point reads schemas without the SDK's `asSchema` (zod 4 and AI SDK schemas convert). */
const AI_SDK_EXPLICIT = aiSdkTools(() => undefined);

/**
 * Checks tool-call arguments against live value sets and records
 * cardinality-safe counters and sampled log records.
 *
 * Every call goes through one engine (`engine.ts`): `check()` for a
 * dispatcher you own, and the MCP client wrappers that `init()` lists.
 */
export class ToolArgumentInstrumentation extends InstrumentationBase<ToolArgumentInstrumentationConfig> {
  // `declare`: InstrumentationBase calls init(), setConfig() and
  // _updateMetricInstruments() from its constructor; initialised fields would
  // be reset after it returns.
  declare private engine: Engine | undefined;
  declare private registry: SeriesRegistry | undefined;
  declare private listings: ToolListings | undefined;
  declare private metrics: Metrics | undefined;
  declare private budgetReported: boolean | undefined;
  declare private deriveFrameworkSets: boolean | undefined;
  declare private frameworks: PatchHost | undefined;

  /** @throws ArgcheckConfigError for a configuration mistake (stable `code`). */
  constructor(config: ToolArgumentInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
    this.engine = this.buildEngine(this.getConfig());
    this._updateMetricInstruments();
  }

  /** Check one call's arguments and record its telemetry. Synchronous; never throws. */
  check(tool: string, args: unknown, ctx?: CheckContext): CheckOutcome {
    return (this.engine as Engine).check(tool, args, ctx);
  }

  /** Fetch every configured value set; settles when each has had its first fetch. Never rejects. */
  ready(): Promise<void> {
    return (this.engine as Engine).ready();
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
    const target = client as Record<string, unknown>;
    if (typeof target.callTool !== 'function') {
      this._diag.warn(
        'argcheck: instrumentMcpClient was given an object without callTool; ignored',
      );
      return;
    }
    const engine = () => this.engine;
    wrapInstanceMethod(target, 'callTool', patchCallTool(engine, this._diag));
    wrapInstanceMethod(target, 'listTools', patchListTools(engine, this._diag));
    const tasks = tasksOf(target);
    if (tasks !== undefined) {
      wrapInstanceMethod(tasks, 'callToolStream', patchCallToolStream(engine, this._diag));
    }
  }

  /**
   * OpenAI Agents SDK: a tool input guardrail that checks each call of the
   * tools it is added to (`inputGuardrails: [inst.openAIAgentsGuardrail()]`),
   * for applications the patch cannot reach. A call also seen by the patch
   * counts once.
   */
  openAIAgentsGuardrail(): AgentsToolInputGuardrail {
    return agentsToolGuardrail(this.frameworkHost());
  }

  /**
   * LangChain.js: check the calls of one tool (any `StructuredTool`, for
   * example one given to LangGraph's `ToolNode`) that the patch cannot reach.
   * Returns the tool itself. A tool patched both ways counts each call once.
   */
  instrumentLangChainTool<T extends object>(tool: T): T {
    if (!isObject(tool) || typeof tool.call !== 'function' || typeof tool.name !== 'string') {
      this._diag.warn(
        'argcheck: instrumentLangChainTool was given an object without name and call; ignored',
      );
      return tool;
    }
    wrapInstanceMethod(tool, 'call', patchToolCall(this.frameworkHost()));
    return tool;
  }

  /**
   * The AI SDK's `tools` with every call checked, for `generateText`,
   * `streamText` or `new ToolLoopAgent({ tools })` where auto-patching cannot
   * reach `ai` (ESM without the loader hook). Returns a new map of copies; the
   * tools given are not changed. Checked both ways, a call counts once.
   */
  wrapAiSdkTools<T>(tools: T): T {
    return checkTools(this.patchHost(), this.patchHost().tools, AI_SDK_EXPLICIT, tools).tools;
  }

  /**
   * Mastra agent `hooks` whose `beforeToolCall` checks each tool call, then
   * runs the one in `hooks`, if any: `new Agent({ hooks: inst.mastraHooks() })`.
   * For Mastra releases with tool hooks, where auto-patching cannot reach
   * `@mastra/core`. Checked both ways, a call counts once.
   */
  mastraHooks<H extends MastraToolHooks>(
    hooks?: H,
  ): H & Required<Pick<MastraToolHooks, 'beforeToolCall'>> {
    return mastraHooks(this.patchHost(), hooks);
  }

  /** Stop background refreshes and fetches in flight. */
  close(): void {
    this.engine?.close();
  }

  override setConfig(config: ToolArgumentInstrumentationConfig = {}): void {
    // Before the constructor has run its course there is nothing to rebuild.
    if (this.engine === undefined) {
      super.setConfig(config);
      return;
    }
    const next = this.buildEngine(config);
    super.setConfig(config);
    const previous = this.engine;
    this.engine = next;
    previous.close();
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
   * What is patched, when it is loaded after registration:
   *
   * - `@modelcontextprotocol/client` 2.x: `Client.prototype.callTool` and
   *   `listTools`, in its main entry (`dist/index.cjs`, or `dist/index.mjs`
   *   through the ESM hook).
   * - `@modelcontextprotocol/sdk` 1.x: the same two methods, and
   *   `client.experimental.tasks.callToolStream`, in its two client files.
   *   By name this reaches ESM imports and versions whose `main` resolves;
   *   1.32.x names a `main` it does not ship, and require-in-the-middle then
   *   skips every file hook in the package. So each installed 1.x copy's
   *   client files are also hooked by absolute path, as modules of their own
   *   (such a hook reports the file's base name and no version, hence `*`).
   *
   * - The agent frameworks, unless `frameworks.enabled` is false: the AI SDK
   *   and its MCP client (`frameworks/ai-sdk/patch.ts`), Mastra
   *   (`frameworks/mastra/patch.ts`).
   *
   * Runs inside `super()`: the wrappers read the engine only when called.
   */
  protected override init(): InstrumentationModuleDefinition[] {
    return [...this.mcpDefinitions(), ...this.frameworkDefinitions()];
  }

  /**
   * The agent frameworks, when loaded after registration (docs/frameworks.md):
   * `@openai/agents-core`'s `invokeFunctionTool` and `@langchain/core`'s
   * `StructuredTool.prototype.call`, in both builds of each; the AI SDK and
   * its MCP client (`frameworks/ai-sdk/patch.ts`) and Mastra
   * (`frameworks/mastra/patch.ts`).
   */
  private frameworkDefinitions(): InstrumentationModuleDefinition[] {
    if (!(this.getConfig().frameworks?.enabled ?? true)) return [];
    const host = this.frameworkHost();
    const wrapping = {
      wrap: (target: object, name: string, patch: Patch) => this.wrap(target, name, patch),
      unwrap: (target: object, name: string) => unwrapMethod(this.shimmer(), target, name),
    };
    return [
      ...[openAiAgentsModule(host, wrapping), langChainModule(host, wrapping)].map((m) =>
        frameworkDefinition(m, this._diag),
      ),
      ...aiSdkModules(this.patchHost()),
      ...mastraModules(this.patchHost()),
    ];
  }

  private frameworkHost(): FrameworkHost {
    return {
      engine: () => this.engine,
      deriveValueSets: () => this.getConfig().frameworks?.deriveValueSets ?? true,
      diag: this._diag,
    };
  }

  private mcpDefinitions(): InstrumentationModuleDefinition[] {
    if (!(this.getConfig().mcp?.enabled ?? true)) return [];
    const patch = <T>(moduleExports: T): T => {
      this.patchMcpClient(moduleExports);
      return moduleExports;
    };
    const unpatch = <T>(moduleExports: T): T => {
      this.unpatchMcpClient(moduleExports);
      return moduleExports;
    };
    const file = (name: string, versions: string[]) =>
      new InstrumentationNodeModuleFile(name, versions, patch, unpatch);
    return [
      new InstrumentationNodeModuleDefinition(
        MCP_CLIENT_PACKAGE,
        MCP_CLIENT_VERSIONS,
        patch,
        unpatch,
      ),
      new InstrumentationNodeModuleDefinition(
        SDK_PACKAGE,
        MCP_SDK_VERSIONS,
        undefined,
        undefined,
        SDK_CLIENT_FILES.map((f) => file(`${SDK_PACKAGE}/${f}`, MCP_SDK_VERSIONS)),
      ),
      ...findSdkInstalls().flatMap((install) =>
        install.clientFiles.map(
          (path) =>
            new InstrumentationNodeModuleDefinition(path, ['*'], undefined, undefined, [
              file(parse(path).name, ['*']),
            ]),
        ),
      ),
    ];
  }

  /**
   * What the AI SDK and Mastra integrations read and use; made on first use
   * (inside `super()` for `init()`), kept for the copies and listings they share.
   */
  private patchHost(): PatchHost {
    if (this.frameworks === undefined) {
      const diag = () => this._diag;
      this.frameworks = {
        engine: () => this.engine,
        deriveValueSets: () => this.deriveFrameworkSets ?? true,
        get diag() {
          return diag();
        },
        tools: createToolsState(),
        wrap: (target, name, patch) => this.wrap(target, name, patch),
        unwrap: (target, name) => unwrapMethod(this.shimmer(), target, name),
      };
    }
    return this.frameworks;
  }

  /** Wrap `Client.prototype` of a loaded MCP client module; the same module may come twice. */
  private patchMcpClient(moduleExports: unknown): void {
    const proto = clientPrototype(moduleExports);
    if (proto === undefined) {
      this._diag.debug(
        'argcheck: MCP client module without Client.prototype.callTool; not patched',
      );
      return;
    }
    const engine = () => this.engine;
    this.wrap(proto, 'callTool', patchCallTool(engine, this._diag));
    this.wrap(proto, 'listTools', patchListTools(engine, this._diag));
    const tasks = tasksPrototype(proto);
    if (tasks !== undefined)
      this.wrap(tasks, 'callToolStream', patchCallToolStream(engine, this._diag));
  }

  private unpatchMcpClient(moduleExports: unknown): void {
    const proto = clientPrototype(moduleExports);
    if (proto === undefined) return;
    const shimmer = this.shimmer();
    unwrapMethod(shimmer, proto, 'callTool');
    unwrapMethod(shimmer, proto, 'listTools');
    const tasks = tasksPrototype(proto);
    if (tasks !== undefined) unwrapMethod(shimmer, tasks, 'callToolStream');
  }

  private wrap(target: object, name: string, patch: Patch): void {
    wrapMethod(this.shimmer(), target, name, patch);
  }

  private shimmer(): Shimmer {
    // shimmer's types want the key of a known type; ours are looked up by name.
    const wrap = this._wrap as unknown as Shimmer['wrap'];
    const unwrap = this._unwrap as unknown as Shimmer['unwrap'];
    return { wrap, unwrap };
  }

  protected override _updateMetricInstruments(): void {
    if (this.engine === undefined) return;
    this.metrics?.dispose();
    this.metrics = undefined;
    try {
      this.metrics = createMetrics(
        this.meter,
        { registry: this.series(), statuses: () => this.engine?.statuses() ?? [] },
        this._diag,
      );
    } catch (error) {
      this._diag.warn('creating argcheck instruments failed; metrics are off', error);
    }
  }

  private buildEngine(config: ToolArgumentInstrumentationConfig): Engine {
    const resolved = resolveConfig(config);
    this.listings ??= new WeakMap();
    this.deriveFrameworkSets = resolved.frameworks.deriveValueSets;
    return createEngine(resolved, {
      registry: this.series(),
      listings: this.listings,
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

  private series(): SeriesRegistry {
    this.registry ??= createSeriesRegistry();
    return this.registry;
  }
}
