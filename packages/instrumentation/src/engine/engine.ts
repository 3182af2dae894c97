/**
 * The one seam every tool call goes through, whoever makes it: a dispatcher
 * calling `inst.check`, an MCP client, an agent framework. In: one `ToolCall`
 * (tool, arguments, context, scope, and which integration saw it). Out: a
 * `Decision` — the arguments to send on, or the repair message to answer the
 * model with instead — already checked, counted and sampled. Modes,
 * rewriting, rejection, counting, "counted once" and failing open live here
 * and nowhere else; each integration only turns a decision into its
 * framework's idiom.
 *
 * `scope` is the object whose tool catalog applies to the call (an MCP
 * client, a framework tool, an agent): string enums in its tools' schemas are
 * checked too, as derived value sets (`catalog/derived-sets.ts`).
 *
 * One engine is built per configuration; `setConfig` builds the next one.
 */
import { context } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { createArgumentChecker, createValueSetProvider } from '@argcheck/core';
import type {
  CheckContext,
  CheckMode,
  CheckOutcome,
  ValueSetEvent,
  ValueSetProvider,
  ValueSetStatus,
} from '@argcheck/core';
import { createDerivedSets } from '../catalog/derived-sets.js';
import type { ToolListing, ToolListings } from '../catalog/derived-sets.js';
import type { DerivedCatalog } from '../catalog/derive-catalog.js';
import { createToolDefinitions } from '../catalog/tool-definitions.js';
import type { ResolvedConfig } from '../config/resolve-config.js';
import { createCheckLog } from '../logs/check-log.js';
import type { LogEmitter } from '../logs/check-log.js';
import { definitionRecorder } from '../logs/definition-log.js';
import type { IntegrationName } from '../semconv.js';
import { NO_ATTRIBUTION } from '../telemetry/attribution.js';
import type { Attribution } from '../telemetry/attribution.js';
import { seriesTable } from '../telemetry/series.js';
import type { ArgumentSeries, SeriesRegistry } from '../telemetry/series.js';
import { createSpanOutcome } from '../telemetry/span-outcome.js';
import { coveredBy, marked, runMarked, takeMark } from './call-marks.js';
import { countedChecker } from './counted-checker.js';
import type {
  CallContext,
  Catalogs,
  CoreChecker,
  CountedChecker,
  InSetLane,
} from './counted-checker.js';
import { readOnce } from './read-once.js';
import { createRepairOutcomes } from './repair-outcomes.js';
import type { RepairOutcomes } from './repair-outcomes.js';
import { baggagePromptVersion, currentRun } from './run-scope.js';
import type { Run, RunAttribution } from './run-scope.js';
import { createToolNames } from './tool-names.js';

export type { CallContext } from './counted-checker.js';

/** One tool call as an integration sees it. */
export interface ToolCall {
  /** The tool's name in the framework's own registry (a tools-map key, `tool.name`), or the MCP request's. */
  readonly tool: string;
  /** As the model emitted them: an object, or a JSON string. */
  readonly args: unknown;
  readonly context?: CallContext | undefined;
  /** The object whose tool catalog applies (an MCP client, a framework tool, an agent). */
  readonly scope?: object | undefined;
  readonly integration: IntegrationName;
  /**
   * The sender reads the arguments again (an MCP request): check a copy read
   * once, and send that copy (`read-once.ts`).
   */
  readonly readOnce?: boolean;
  /**
   * What produced the call, where the integration knows it for this call
   * (a Mastra agent's model and name); above the run's.
   */
  readonly attribution?: RunAttribution | undefined;
}

/** What to do with one call. */
export interface Decision {
  /** The arguments to send on: the model's, the copy read once, or the rewritten ones. */
  readonly args: unknown;
  /** Answer the model with this repair message instead of making the call (`reject`). */
  readonly answer: string | undefined;
  /** The check's outcome; `undefined` when an outer layer checked and counted this very call. */
  readonly outcome: CheckOutcome | undefined;
}

/** `decideSent`'s answer for a rejected call: the repair message to answer the model with. */
export class Refusal {
  constructor(readonly message: string) {}
}

/** A decision as `decideSent` gives it: the arguments to send, or a `Refusal`. */
export function sentOf(decision: Decision): unknown {
  return decision.answer === undefined ? decision.args : new Refusal(decision.answer);
}

export interface Engine {
  readonly mode: CheckMode;
  /** `spanOutcome` is on: outcomes are written on spans. */
  readonly spanOutcome: boolean;
  /** The provider over the configured value sets. */
  readonly valueSets: ValueSetProvider;
  /**
   * A dispatcher's call (`inst.check`): check, count, maybe sample. The
   * context may name the model, provider, agent and prompt version
   * (`DispatcherContext`). Synchronous; never throws.
   */
  check(tool: string, args: unknown, ctx?: DispatcherContext): CheckOutcome;
  /** The seam: see the file comment. Synchronous; never throws. */
  decide(call: ToolCall): Decision;
  /**
   * The seam of a sender that reads the arguments again (an MCP client):
   * `decide` with `readOnce`, without the objects around it. Returns the
   * arguments to send (the copy read once, maybe rewritten), or a `Refusal`.
   * The call's context is `context(source)`, read only for a sampled log
   * record or a repair. Synchronous; never throws.
   */
  decideSent<S extends object>(
    tool: string,
    args: unknown,
    scope: object | undefined,
    integration: IntegrationName,
    context: (source: S) => CheckContext,
    source: S,
  ): unknown;
  /**
   * The seam for an integration that runs the tool itself: decides, then
   * either runs the tool with the arguments to send, marked as checked so the
   * MCP call it makes for this very call is not counted again
   * (`call-marks.ts`), or returns `answer(repairMessage)` without running it.
   * Whatever argcheck throws, the tool runs with the model's arguments.
   */
  invoke<T>(call: ToolCall, run: (args: unknown) => T, answer: (repairMessage: string) => T): T;
  /**
   * Write an outcome on the active span (`spanOutcome`), for an integration
   * that checks a call before the span of its execution starts (the AI SDK
   * validates a call's input before its `execute_tool` span). Never throws.
   */
  outcomeOnSpan(outcome: CheckOutcome): void;
  /**
   * A tool listing from `scope`. Returns a promise (never rejecting) that
   * settles once calls in that scope are checked against the enums it
   * derived, or `undefined` when nothing changed.
   */
  toolsListed(scope: object, listing: ToolListing): Promise<void> | undefined;
  /** Whether `scope` (an MCP client) has listed its tools, under this or an earlier configuration. */
  listed(scope: object): boolean;
  /** Whether `tool` is in the tools `scope` listed last. */
  inCatalog(scope: object, tool: string): boolean;
  /** Sets would be derived from `scope`'s tool listing (an MCP client), and it has none yet. */
  wantsListing(scope: object): boolean;
  /** The catalog whose derived sets check `scope`'s calls now, if any (diagnostics, tests). */
  catalogFor(scope: object): DerivedCatalog | undefined;
  /** Start loading every configured set not loading yet (the instrumentation is enabled). */
  start(): void;
  /** Settles when every configured and derived set has had its first load. Never rejects. */
  ready(): Promise<void>;
  /** Status of the configured sets and of the derived sets in use. */
  statuses(): ValueSetStatus[];
  /** Count repairs that waited past their window as abandoned (at each collection). */
  sweep(): void;
  close(): void;
}

/** A dispatcher's check context: the call's ids, and what produced it. */
export interface DispatcherContext extends CheckContext {
  model?: string;
  provider?: string;
  agent?: string;
  promptVersion?: string;
}

export interface EngineDeps {
  /** The instrumentation the engine belongs to: its marks exempt only its own calls. */
  owner: object;
  registry: SeriesRegistry;
  /** Tool listings per scope; they outlive an engine, so the next configuration derives from them too. */
  listings: ToolListings;
  /** Read at each log record, so that a logger provider set later is used. */
  logger: () => LogEmitter;
  diag: DiagLogger;
  onEvent: (event: ValueSetEvent) => void;
  /** Derived arguments were left unchecked because the budget is spent. */
  onBudgetSpent: (unchecked: number) => void;
  /**
   * The configured sets of the engine this one replaces (`setConfig`): a set
   * whose source did not change keeps what it held (members, age, state).
   */
  replaces?: ValueSetProvider | undefined;
}

/** @throws ArgcheckConfigError for a configuration mistake (from the core). */
export function createEngine(config: ResolvedConfig, deps: EngineDeps): Engine {
  const { owner, registry } = deps;
  const providerOptions = {
    ttlMs: config.ttlMs,
    fetchTimeoutMs: config.fetchTimeoutMs,
    maxStaleMs: config.maxStaleMs,
    refreshJitter: config.refreshJitter,
    clock: config.clock,
    random: config.random,
    // Loads start when the instrumentation is enabled (`start`), derived sets' when they are listed.
    lazy: true,
    onEvent: (event: ValueSetEvent) => {
      registry.fetched(event);
      if (event.type === 'fetch_succeeded' && event.unchanged !== true) served(event.set);
      deps.onEvent(event);
    },
  };
  const provider = createValueSetProvider({
    sources: config.valueSets,
    ...providerOptions,
    replaces: deps.replaces,
  });
  for (const { name, source } of provider.status()) registry.valueSet(name, source);
  /** A configured set's fetch published a set: count how its members changed. */
  function served(name: string): void {
    try {
      const lookup = provider.get(name);
      const source = provider.status().find((s) => s.name === name)?.source;
      if (lookup.state !== 'unavailable' && source !== undefined) {
        registry.served(name, source, lookup.set);
      }
    } catch {
      // Telemetry never affects the provider.
    }
  }
  const log = createCheckLog({ ...config, logger: deps.logger, diag: deps.diag });
  const repairs: RepairOutcomes | undefined =
    config.mode === 'reject'
      ? createRepairOutcomes({ windowMs: config.repairWindowMs, clock: config.clock ?? Date })
      : undefined;
  const attribution = config.attribution;
  const definitions =
    attribution.enabled && attribution.toolDefinition
      ? createToolDefinitions(
          deps.listings,
          config.logSampleRatio > 0 ? definitionRecorder(deps.logger, deps.diag) : () => {},
        )
      : undefined;
  /** The `attribution.promptVersion` option: a fixed value, or a function read at each call. */
  const optionPromptVersion = (): string | undefined => {
    const option = attribution.promptVersion;
    if (typeof option !== 'function') return option;
    try {
      const value = option();
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  };
  /** A dispatcher's call: the option, else the baggage its run (`inst.withAttribution`) started with. */
  const dispatcherPromptVersion = (run: Run | undefined): string | undefined =>
    attribution.promptVersion !== undefined ? optionPromptVersion() : run?.baggagePromptVersion;
  // The baggage entry of the context read last: calls come one after the
  // other in one context, and the entry is read again only when it changes.
  let lastContext: unknown;
  let lastBaggageVersion: string | undefined;
  /**
   * An integration's call: the option, else the baggage's
   * `gen_ai.prompt.version` — the run's, read when it started, or outside a
   * run the active context's.
   */
  const promptVersion = (run: Run | undefined): string | undefined => {
    if (attribution.promptVersion !== undefined) return optionPromptVersion();
    if (run !== undefined) return run.baggagePromptVersion;
    try {
      const active = context.active();
      if (active !== lastContext) {
        lastContext = active;
        lastBaggageVersion = baggagePromptVersion(active);
      }
      return lastBaggageVersion;
    } catch {
      return undefined;
    }
  };
  let optionsAttribution: Attribution | undefined;
  /**
   * What produced a call: the dispatcher's context first, then the run the
   * call is made in (a framework run, `inst.withAttribution`), then the
   * options (and, for an integration's call, the baggage: `prompted`); its
   * tool's `definition` (hash) from the scope's listing.
   */
  const attributionOf = (
    scope: object | undefined,
    definition: string | undefined,
    run: Run | undefined,
    ctx: DispatcherContext | undefined,
    prompted: (run: Run | undefined) => string | undefined,
  ): Attribution => {
    if (!attribution.enabled) return NO_ATTRIBUTION;
    const prompt = ctx?.promptVersion ?? run?.promptVersion ?? prompted(run);
    // A dispatcher's call that names nothing: what the options say, interned once.
    if (
      run === undefined &&
      scope === undefined &&
      prompt === undefined &&
      (ctx === undefined ||
        (ctx.model === undefined && ctx.provider === undefined && ctx.agent === undefined))
    ) {
      return (optionsAttribution ??= deps.registry.attributions.of(
        attribution.model,
        attribution.provider,
        attribution.agent,
        undefined,
        undefined,
      ));
    }
    return deps.registry.attributions.of(
      ctx?.model ?? run?.model ?? attribution.model,
      ctx?.provider ?? run?.provider ?? attribution.provider,
      ctx?.agent ?? run?.agent ?? attribution.agent,
      prompt,
      definition,
    );
  };
  // A dispatcher's context outside a run, as the previous call's: a
  // dispatcher mostly passes the same model, provider, agent and prompt
  // version strings call after call, compared here by pointer. A prompt
  // version option given as a function is read at every call it applies to.
  let lastModel: string | undefined;
  let lastProvider: string | undefined;
  let lastAgent: string | undefined;
  let lastPromptVersion: string | undefined;
  let lastDispatcher: Attribution | undefined;
  const promptOptionIsFunction = typeof attribution.promptVersion === 'function';
  const dispatcherAttribution = (ctx: DispatcherContext): Attribution => {
    const { model, provider, agent, promptVersion } = ctx;
    if (
      lastDispatcher !== undefined &&
      model === lastModel &&
      provider === lastProvider &&
      agent === lastAgent &&
      promptVersion === lastPromptVersion &&
      (promptVersion !== undefined || !promptOptionIsFunction)
    ) {
      return lastDispatcher;
    }
    const attributed = attributionOf(undefined, undefined, undefined, ctx, dispatcherPromptVersion);
    lastModel = model;
    lastProvider = provider;
    lastAgent = agent;
    lastPromptVersion = promptVersion;
    lastDispatcher = attributed;
    return attributed;
  };
  const onSpan = createSpanOutcome(config.spanOutcome);
  const names = createToolNames(Object.keys(config.checkedArguments));
  // Read only when a call is counted under a tool name for the first time, or has nothing checked.
  const catalogs: Catalogs = {
    inCatalog: (scope, tool) => derived.inCatalog(scope, tool),
    unlisted: (scope) => config.mcp.deriveValueSets && !derived.listed(scope),
  };
  const configuredSeries = Object.entries(config.checkedArguments).flatMap(([tool, paths]) =>
    Object.entries(paths).map(([argument, set]) => registry.configured(tool, argument, set)),
  );
  const counted = (
    core: CoreChecker,
    series: readonly ArgumentSeries[],
    aliases?: ReadonlyMap<string, string>,
  ): CountedChecker =>
    countedChecker(core, {
      table: seriesTable(series, registry, aliases),
      registry,
      names,
      log,
      onSpan,
      catalogs,
      repairs,
    });
  let checker: ReturnType<typeof createArgumentChecker>;
  try {
    checker = createArgumentChecker({
      valueSets: provider,
      checkedArguments: config.checkedArguments,
      mode: config.mode,
      repairDisclosure: config.repairDisclosure.configured,
    });
  } catch (error) {
    // Sets it took over (`replaces`) are refreshing already: a configuration refused must leave nothing running.
    provider.close();
    throw error;
  }
  const configured = counted(
    { checker, checkedArguments: config.checkedArguments, valueSets: provider },
    configuredSeries,
  );
  /** Bumped by the derived sets at every change of a scope's listing or checker. */
  let epoch = 0;
  const derived = createDerivedSets({
    config,
    names,
    configuredSets: provider,
    configuredSeries,
    providerOptions,
    registry,
    listings: deps.listings,
    counted,
    diag: deps.diag,
    onBudgetSpent: deps.onBudgetSpent,
    changed: () => {
      epoch++;
    },
  });

  // The previous scoped call's scope and tool, and what was looked up for
  // them (their checker, the tool's definition hash, whether the scope has
  // listed): calls come one after the other from one client or agent, and
  // the lookups (weak maps, a listing's map) are made again only when the
  // scope or the tool changes, or the derived sets do (`epoch`).
  let memoScope: object | undefined;
  let memoTool: string | undefined;
  let memoEpoch = -1;
  let memoChecker: CountedChecker = configured;
  let memoDefinition: string | undefined;
  /** Read only when asked (`wantsListing`, MCP): `undefined` until then. */
  let memoListed: boolean | undefined;

  // A closed engine (replaced by `setConfig`) may still decide a call in
  // flight, while its successor changes the listings: it looks up every time.
  let closed = false;
  /** `memoChecker` and `memoDefinition` of `tool` in `scope`; outside a scope, the configured checker. */
  const lookUp = (scope: object | undefined, tool: string): void => {
    if (scope === undefined) {
      // Not memoised: the next scoped call looks up again.
      memoScope = undefined;
      memoChecker = configured;
      memoDefinition = undefined;
      return;
    }
    if (scope === memoScope && tool === memoTool && epoch === memoEpoch && !closed) return;
    memoScope = undefined;
    const checker = derived.checkerFor(scope) ?? configured;
    const definition = definitions === undefined ? undefined : definitions.of(scope, tool);
    memoListed = undefined;
    memoChecker = checker;
    memoDefinition = definition;
    memoTool = tool;
    // Read after the lookups, which may start a derivation (and bump it).
    memoEpoch = epoch;
    memoScope = scope;
  };

  const decide = (call: ToolCall): Decision => {
    const { tool, integration, scope } = call;
    const args = call.readOnce === true ? readOnce(call.args) : call.args;
    // This very call, checked and counted by an outer layer of this instrumentation.
    const exempt =
      integration === 'mcp'
        ? takeMark(owner, tool, args, names.same)
        : coveredBy(owner, tool, args, names.same);
    if (exempt) return { args, answer: undefined, outcome: undefined };
    const run = currentRun();
    lookUp(scope, tool);
    const outcome = memoChecker.check(
      tool,
      args,
      call.context,
      integration,
      scope,
      attributionOf(scope, memoDefinition, run, call.attribution, promptVersion),
      run,
    );
    if (outcome.action === 'reject' && typeof outcome.repairMessage === 'string') {
      return { args, answer: outcome.repairMessage, outcome };
    }
    return { args: outcome.args, answer: undefined, outcome };
  };

  // The lane of the previous call taken on one (`counted-checker.ts`,
  // `InSetLane`): its scope, tool, integration and prompt version, under the
  // derived sets' `epoch`. Calls come one after the other from one client
  // for one tool, and an in-set one is counted there in one function.
  let laneScope: object | undefined;
  let laneTool: string | undefined;
  let laneIntegration: IntegrationName | undefined;
  let lanePrompt: string | undefined;
  /** -1 until a lane is resolved, and while one is. */
  let laneEpoch = -1;
  let lane: InSetLane | undefined;
  let laneChecker: CountedChecker = configured;

  /**
   * Count a call of arguments read once on its lane, when it is in no run
   * and no mark (nothing can exempt it or attribute it otherwise) and every
   * checked argument it carries is in its set (in `observe` mode, a string
   * of a loaded set). False: nothing was counted, and the call takes
   * `decide`.
   */
  const onLane = (
    tool: string,
    args: unknown,
    scope: object | undefined,
    integration: IntegrationName,
    ctx: CallContext,
  ): boolean => {
    if (closed || typeof args !== 'object' || args === null || Array.isArray(args)) return false;
    if (marked() || currentRun() !== undefined) return false;
    const prompt = attribution.enabled ? promptVersion(undefined) : undefined;
    if (
      scope !== laneScope ||
      tool !== laneTool ||
      integration !== laneIntegration ||
      prompt !== lanePrompt ||
      epoch !== laneEpoch
    ) {
      laneEpoch = -1;
      lookUp(scope, tool);
      const checker = memoChecker;
      const attributed = attributionOf(scope, memoDefinition, undefined, undefined, () => prompt);
      lane = checker.lane(tool, integration, scope, attributed);
      laneChecker = checker;
      laneScope = scope;
      laneTool = tool;
      laneIntegration = integration;
      lanePrompt = prompt;
      // Read after the lookups, which may start a derivation (and bump it).
      laneEpoch = epoch;
    }
    return lane !== undefined && laneChecker.countLane(lane, args, ctx);
  };

  // `decideSent`'s context, read through one function made once: the
  // source of the call being decided, kept while it is (and put back after,
  // should a redaction make a call of its own).
  let contextSource: object = {};
  let contextOf: (source: object) => CheckContext = () => ({});
  const sentContext = (): CheckContext => contextOf(contextSource);

  const engine: Engine = {
    mode: config.mode,
    spanOutcome: config.spanOutcome,
    valueSets: provider,
    check(tool, args, ctx) {
      let run: Run | undefined;
      let attributed: Attribution = NO_ATTRIBUTION;
      try {
        run = currentRun();
        if (attribution.enabled) {
          const given = typeof ctx === 'object' && ctx !== null ? ctx : undefined;
          // The caller hands its context over: no ambient baggage is read on this path.
          attributed =
            run === undefined && given !== undefined
              ? dispatcherAttribution(given)
              : attributionOf(undefined, undefined, run, given, dispatcherPromptVersion);
        }
      } catch {
        // Attribution never affects the check.
      }
      return configured.check(tool, args, ctx, 'dispatcher', undefined, attributed, run);
    },
    decide(call) {
      try {
        return decide(call);
      } catch {
        // The counted checkers never throw; a hostile call object or arguments might.
        return { args: call.args, answer: undefined, outcome: undefined };
      }
    },
    decideSent(tool, raw, scope, integration, context, source) {
      const previousSource = contextSource;
      const previousOf = contextOf;
      contextSource = source;
      contextOf = context as (source: object) => CheckContext;
      try {
        const args = readOnce(raw);
        if (onLane(tool, args, scope, integration, sentContext)) return args;
        // Every other call, as `decide` (this engine's own: a test sees what the lane left it).
        return sentOf(engine.decide({ tool, args, context: sentContext, scope, integration }));
      } catch {
        // The arguments could not be read: the call goes out as the caller made it.
        return raw;
      } finally {
        contextSource = previousSource;
        contextOf = previousOf;
      }
    },
    invoke(call, run, answer) {
      let decision: Decision | undefined;
      let tool: string | undefined;
      try {
        tool = call.tool;
        decision = decide(call);
      } catch {
        // As `decide`: the tool runs with the model's arguments.
      }
      if (decision === undefined || tool === undefined) return run(call.args);
      if (decision.answer !== undefined) return answer(decision.answer);
      const args = decision.args;
      if (decision.outcome === undefined) return run(args);
      return runMarked(owner, tool, args, () => run(args));
    },
    outcomeOnSpan: (outcome) => onSpan?.(outcome),
    toolsListed: (scope, listing) => derived.learn(scope, listing),
    listed: (scope) => derived.listed(scope),
    inCatalog: (scope, tool) => derived.inCatalog(scope, tool),
    wantsListing(scope) {
      if (!config.mcp.deriveValueSets) return false;
      if (scope !== memoScope || epoch !== memoEpoch || closed) return !derived.listed(scope);
      return !(memoListed ??= derived.listed(scope));
    },
    catalogFor: (scope) => derived.catalogFor(scope),
    start() {
      void provider.ready();
    },
    async ready() {
      await Promise.all([provider.ready(), derived.ready()]);
    },
    statuses() {
      const seen = new Set<string>();
      return [...provider.status(), ...derived.statuses()].filter(
        (s) => !seen.has(s.name) && seen.add(s.name),
      );
    },
    sweep() {
      repairs?.sweep();
    },
    close() {
      closed = true;
      repairs?.close();
      provider.close();
      derived.close();
    },
  };
  return engine;
}
