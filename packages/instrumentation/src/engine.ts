/**
 * The one seam every tool call goes through, whoever makes it: a dispatcher
 * calling `inst.check`, an MCP client, an agent framework. In:
 * (tool, args, context, scope). Out: the core's `CheckOutcome`, already
 * counted and sampled; the integration then sends `outcome.args` on, or, for
 * `reject`, answers the model with `outcome.repairMessage` in its own way.
 * Modes, counting, sampling and failing open live here and nowhere else.
 *
 * `scope` is the object whose tool catalog applies to the call (an MCP
 * client): string enums in its tools' schemas are checked too, as derived
 * value sets (`catalog/derived-sets.ts`), a part subordinate to this one.
 *
 * One engine is built per configuration; `setConfig` builds the next one.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { createArgumentChecker, createValueSetProvider } from '@argcheck/core';
import type {
  ArgumentChecker,
  CheckContext,
  CheckMode,
  CheckOutcome,
  Finding,
  ValueSetEvent,
  ValueSetProvider,
  ValueSetStatus,
} from '@argcheck/core';
import { createDerivedSets } from './catalog/derived-sets.js';
import { runChecked } from './checked-calls.js';
import type { ToolListing, ToolListings } from './catalog/derived-sets.js';
import type { DerivedCatalog } from './catalog/derive-catalog.js';
import type { ResolvedConfig } from './config/resolve-config.js';
import { createCheckLog } from './logs/check-log.js';
import type { CheckLog, LogEmitter } from './logs/check-log.js';
import { REASON_SLOT, SHAPE_SLOT, SLOT, seriesFor, seriesTable } from './telemetry/series.js';
import { createSpanOutcome } from './telemetry/span-outcome.js';
import type { SpanOutcome } from './telemetry/span-outcome.js';
import type { ArgumentSeries, SeriesRegistry, SeriesTable, ToolEntry } from './telemetry/series.js';

/** A call's context, or a function that reads it, called only when a log record is written. */
export type CallContext = CheckContext | (() => CheckContext);

/** One tool call as an integration sees it. */
export interface ToolCall {
  /** The tool's name in the framework's own registry (a tools-map key, `tool.name`), never model output. */
  readonly tool: string;
  /** As the model emitted them: an object, or a JSON string. */
  readonly args: unknown;
  readonly context?: CallContext;
  /** The object whose tool catalog applies (an MCP client, an agent, a tools map). */
  readonly scope?: object;
}

export interface Engine {
  readonly mode: CheckMode;
  /** `spanOutcome` is on: outcomes are written on spans. */
  readonly spanOutcome: boolean;
  /** The provider over the configured value sets. */
  readonly valueSets: ValueSetProvider;
  /**
   * Check one call, count it and maybe sample it; with `spanOutcome`, write
   * the outcome on the active span. Synchronous; never throws.
   */
  check(tool: string, args: unknown, ctx?: CallContext, scope?: object): CheckOutcome;
  /**
   * Write an outcome on the active span (`spanOutcome`), for an integration
   * that checks a call before the span of its execution starts (the AI SDK
   * validates a call's input before its `execute_tool` span) and so checks
   * outside any span. Never throws.
   */
  outcomeOnSpan(outcome: CheckOutcome): void;
  /**
   * The seam for an integration that runs the tool itself: checks the call,
   * then either runs the tool with the arguments to send (the model's, or the
   * rewritten ones), marked as checked so an MCP client call inside is not
   * counted again (`checked-calls.ts`), or, for a rejection, returns
   * `answer(repairMessage)` without running it. Whatever argcheck throws,
   * the tool runs with the model's arguments.
   */
  invoke<T>(call: ToolCall, run: (args: unknown) => T, answer: (repairMessage: string) => T): T;
  /**
   * A tool listing from `scope`. Returns a promise (never rejecting) that
   * settles once calls in that scope are checked against the enums it
   * derived, or `undefined` when nothing changed.
   */
  toolsListed(scope: object, listing: ToolListing): Promise<void> | undefined;
  /** The catalog whose derived sets check `scope`'s calls now, if any (diagnostics, tests). */
  catalogFor(scope: object): DerivedCatalog | undefined;
  /** Settles when every configured and derived set has had its first load. Never rejects. */
  ready(): Promise<void>;
  /** Status of the configured sets and of the derived sets in use. */
  statuses(): ValueSetStatus[];
  close(): void;
}

export interface EngineDeps {
  registry: SeriesRegistry;
  /** Tool listings per scope; they outlive an engine, so the next configuration derives from them too. */
  listings: ToolListings;
  /** Read at each log record, so that a logger provider set later is used. */
  logger: () => LogEmitter;
  diag: DiagLogger;
  onEvent: (event: ValueSetEvent) => void;
  /** Derived arguments were left unchecked because the budget is spent. */
  onBudgetSpent: (unchecked: number) => void;
}

/** A core checker whose outcomes are counted into their series and sampled. */
export interface CountedChecker {
  check(tool: string, args: unknown, ctx?: CallContext): CheckOutcome;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

/** @throws ArgcheckConfigError for a configuration mistake (from the core). */
export function createEngine(config: ResolvedConfig, deps: EngineDeps): Engine {
  const providerOptions = {
    ttlMs: config.ttlMs,
    fetchTimeoutMs: config.fetchTimeoutMs,
    maxStaleMs: config.maxStaleMs,
    refreshJitter: config.refreshJitter,
    clock: config.clock,
    random: config.random,
    onEvent: (event: ValueSetEvent) => {
      deps.registry.fetched(event);
      deps.onEvent(event);
    },
  };
  const provider = createValueSetProvider({ sources: config.valueSets, ...providerOptions });
  for (const { name, source } of provider.status()) deps.registry.valueSet(name, source);
  const log = createCheckLog({ ...config, logger: deps.logger, diag: deps.diag });
  const onSpan = createSpanOutcome(config.spanOutcome);
  const configuredSeries = Object.entries(config.checkedArguments).flatMap(([tool, paths]) =>
    Object.entries(paths).map(([argument, set]) => deps.registry.configured(tool, argument, set)),
  );
  const counted = (checker: ArgumentChecker, series: readonly ArgumentSeries[]): CountedChecker =>
    countedChecker(checker, seriesTable(series, deps.registry), log, onSpan);
  const configured = counted(
    createArgumentChecker({
      valueSets: provider,
      checkedArguments: config.checkedArguments,
      mode: config.mode,
    }),
    configuredSeries,
  );
  const derived = createDerivedSets({
    config,
    configuredSets: provider,
    configuredSeries,
    providerOptions,
    registry: deps.registry,
    listings: deps.listings,
    counted,
    diag: deps.diag,
    onBudgetSpent: deps.onBudgetSpent,
  });

  const check: Engine['check'] = (tool, args, ctx, scope) => {
    const checker = scope === undefined ? configured : (derived.checkerFor(scope) ?? configured);
    return checker.check(tool, args, ctx);
  };

  return {
    mode: config.mode,
    spanOutcome: config.spanOutcome,
    valueSets: provider,
    check,
    invoke(call, run, answer) {
      let outcome: CheckOutcome | undefined;
      try {
        outcome = check(call.tool, call.args, call.context, call.scope);
      } catch {
        // The counted checkers never throw; a hostile `call` object might.
      }
      if (outcome?.action === 'reject' && typeof outcome.repairMessage === 'string') {
        return answer(outcome.repairMessage);
      }
      const args = outcome === undefined ? call.args : outcome.args;
      return runChecked(() => run(args), args);
    },
    outcomeOnSpan: (outcome) => onSpan?.(outcome),
    toolsListed: (scope, listing) => derived.learn(scope, listing),
    catalogFor: (scope) => derived.catalogFor(scope),
    async ready() {
      await Promise.all([provider.ready(), derived.ready()]);
    },
    statuses() {
      const seen = new Set<string>();
      return [...provider.status(), ...derived.statuses()].filter(
        (s) => !seen.has(s.name) && seen.add(s.name),
      );
    },
    close() {
      provider.close();
      derived.close();
    },
  };
}

function bump(counts: Float64Array, slot: number): void {
  counts[slot] = (counts[slot] as number) + 1;
}

/**
 * Count an outcome into its pre-allocated slots. The hot path does one
 * lookup per finding and increments numbers: no attribute objects, no clock,
 * no random draw and no context read unless a log record is due.
 */
function count(outcome: CheckOutcome, entry: ToolEntry, log: CheckLog, ctx?: CallContext): void {
  const rewritten = outcome.action === 'call_rewritten';
  const findings = outcome.findings;
  for (let i = 0; i < findings.length; i++) {
    const finding = findings[i] as Finding;
    const series = seriesFor(entry, finding.argument);
    if (series === undefined) continue;
    const counts = series.counts;
    if (finding.status === 'unavailable') {
      bump(counts, REASON_SLOT[finding.reason]);
      continue;
    }
    if (finding.inSet) {
      bump(counts, SLOT.IN_SET);
    } else {
      bump(counts, finding.inSetNormalised ? SLOT.IN_SET_NORMALISED_ONLY : SLOT.NOT_IN_SET);
      if (finding.shape !== undefined) bump(counts, SHAPE_SLOT[finding.shape]);
      // The core rewrites exactly the case and format variants (in_set_normalised) when it rewrites at all.
      if (rewritten && finding.inSetNormalised && finding.canonical !== undefined) {
        bump(counts, SLOT.REWRITTEN);
      }
    }
    log.offer(series, finding, ctx);
  }
  if (outcome.action === 'reject') entry.series.repairStarted++;
}

function countedChecker(
  checker: ArgumentChecker,
  table: SeriesTable,
  log: CheckLog,
  onSpan: SpanOutcome | undefined,
): CountedChecker {
  // The tool of the previous call: a dispatcher mostly checks one tool over
  // and over, usually with the same string object, which `===` settles by
  // pointer where the map lookup hashes. Only tools in the table are kept;
  // the table never changes, so the entry kept never goes stale.
  let lastTool: string | undefined;
  let lastEntry: ToolEntry | undefined;
  return {
    check(tool, args, ctx) {
      let entry: ToolEntry | undefined;
      if (tool === lastTool) entry = lastEntry;
      else {
        entry = table.get(tool);
        if (entry !== undefined) {
          lastTool = tool;
          lastEntry = entry;
        }
      }
      // The table has every tool with a checked argument, so the checker would
      // answer this one with no findings: answer it here, without calling it.
      if (entry === undefined) return { tool, action: 'call', args, findings: NO_FINDINGS };
      let outcome: CheckOutcome;
      try {
        // The core checker does not read the context; a deferred one stays unread here.
        outcome = checker.check(tool, args, typeof ctx === 'function' ? undefined : ctx);
      } catch {
        return { tool, action: 'call', args, findings: NO_FINDINGS };
      }
      if (outcome.findings.length > 0) {
        try {
          count(outcome, entry, log, ctx);
        } catch {
          // Telemetry never affects the call.
        }
        onSpan?.(outcome);
      }
      return outcome;
    },
  };
}
