/**
 * A core checker whose outcomes are counted into their pre-allocated series
 * and sampled into log records, and whose calls are counted by coverage
 * (`tool_argument_call`). The engine has one over the configured arguments
 * and one per catalog scope (`catalog/derived-sets.ts`).
 */
import type { ArgumentChecker, CheckContext, CheckOutcome, Finding } from '@argcheck/core';
import { inSetOutcome, inSetPlan, mismatchOf } from './in-set-call.js';
import type { CheckerInputs, InSetArgument, InSetPlan } from './in-set-call.js';
import type { CheckedFinding, CheckLog } from '../logs/check-log.js';
import type { IntegrationName } from '../semconv.js';
import {
  COVERAGE_SLOT,
  INTEGRATION_SLOT,
  REASON_SLOT,
  SHAPE_SLOT,
  SLOT,
  seriesFor,
} from '../telemetry/series.js';
import type {
  ArgumentSeries,
  CallSeries,
  SeriesRegistry,
  SeriesTable,
  ToolEntry,
} from '../telemetry/series.js';
import { NO_ATTRIBUTION } from '../telemetry/attribution.js';
import type { Attribution } from '../telemetry/attribution.js';
import type { SpanOutcome } from '../telemetry/span-outcome.js';
import type { RepairOutcomes } from './repair-outcomes.js';
import type { Run } from './run-scope.js';
import type { ToolNames } from './tool-names.js';

/** A call's context, or a function that reads it, called only when a log record is written. */
export type CallContext = CheckContext | (() => CheckContext);

/**
 * What the call counter asks about a call's scope, only when it must: whether
 * a tool name came from a catalog the integration read, and whether an MCP
 * scope has listed its tools yet.
 */
export interface Catalogs {
  inCatalog(scope: object, tool: string): boolean;
  /** The scope's catalog is not known yet (an MCP call before `listTools`) and would derive sets. */
  unlisted(scope: object): boolean;
}

export interface CountedChecker {
  /**
   * Check one call `integration` saw, count its values and the call itself.
   * `scope` is the object whose catalog the call belongs to, if any;
   * `attribution` what produced it; `run` the run it belongs to.
   * Synchronous; never throws.
   */
  check(
    tool: string,
    args: unknown,
    ctx: CallContext | undefined,
    integration: IntegrationName,
    scope: object | undefined,
    attribution?: Attribution,
    run?: Run,
  ): CheckOutcome;
  /**
   * The lane of `tool`'s in-set calls that `integration` sees in `scope`
   * under `attribution`: what `countLane` counts them into, resolved once.
   * `undefined` when its calls take `check` (no in-set plan, outcomes on
   * spans). Never throws.
   */
  lane(
    tool: string,
    integration: IntegrationName,
    scope: object | undefined,
    attribution: Attribution,
  ): InSetLane | undefined;
  /**
   * Count a call on its lane when every checked argument it carries is a
   * string, read once, of a set that is loaded, and nothing else is due (no
   * repair waits); true when counted. A string out of its set is counted
   * here only on a lane that takes mismatches (`observe`); otherwise, and
   * on false, nothing is counted: the call takes `check`. Never throws.
   */
  countLane(lane: InSetLane, args: object, ctx: CallContext | undefined): boolean;
}

/**
 * One tool's in-set calls from one integration, scope and attribution (in
 * `observe` mode, its calls with strings out of their sets too): their
 * arguments and sets in the order configured, and the counters they count
 * in, so that such a call is one function's work
 * (docs/decisions/0034-the-in-set-lane.md,
 * docs/decisions/0035-observed-mismatches-on-the-lane.md).
 */
export interface InSetLane {
  readonly keys: readonly string[];
  readonly sets: readonly string[];
  /** The plan's series; an attribution's variant is made at its first count. */
  readonly plain: readonly ArgumentSeries[];
  readonly series: (ArgumentSeries | undefined)[];
  readonly attribution: Attribution;
  /** The `tool_argument_call` counters. */
  readonly calls: Float64Array;
  /**
   * Whether a string out of its set is counted here too: in `observe` mode,
   * where a mismatch changes nothing about the call, so counting it is all
   * `check` would do (docs/decisions/0035-observed-mismatches-on-the-lane.md).
   */
  readonly mismatches: boolean;
  /** The values of the call being counted, read once; cleared after it. */
  readonly values: (string | undefined)[];
  /** The findings of its values out of their sets, as the core makes them; cleared after it. */
  readonly found: (CheckedFinding | undefined)[];
  /** A call is being counted (a redaction making a call of its own takes `check`). */
  busy: boolean;
}

/** The correlation key of calls with nothing better (a dispatcher without context): one per tool. */
const NO_KEY = Symbol('argcheck.no-correlation');

/** Which calls a retry is looked for among (`repair-outcomes.ts`). */
function repairKey(
  ctx: CallContext | undefined,
  scope: object | undefined,
  run: Run | undefined,
): unknown {
  if (run !== undefined) return run;
  let conversation: string | undefined;
  try {
    conversation = (typeof ctx === 'function' ? ctx() : ctx)?.conversationId;
  } catch {
    conversation = undefined;
  }
  if (typeof conversation === 'string' && conversation.length > 0) return conversation;
  return scope ?? NO_KEY;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

function bump(counts: Float64Array, slot: number): void {
  counts[slot] = (counts[slot] as number) + 1;
}

/** Count a value out of its set: `in_set_normalised` only, or not in set at all, and its shape. */
function bumpMismatch(counts: Float64Array, finding: CheckedFinding): void {
  bump(counts, finding.inSetNormalised ? SLOT.IN_SET_NORMALISED_ONLY : SLOT.NOT_IN_SET);
  if (finding.shape !== undefined) bump(counts, SHAPE_SLOT[finding.shape]);
}

export interface CountedCheckerDeps {
  readonly table: SeriesTable;
  readonly registry: SeriesRegistry;
  readonly names: ToolNames;
  readonly log: CheckLog;
  readonly onSpan: SpanOutcome | undefined;
  readonly catalogs: Catalogs;
  /** Reject mode: what became of the repairs. */
  readonly repairs: RepairOutcomes | undefined;
}

/** A core checker, and what it was made of. */
export interface CoreChecker extends CheckerInputs {
  readonly checker: ArgumentChecker;
}

export function countedChecker(core: CoreChecker, deps: CountedCheckerDeps): CountedChecker {
  const { table, registry, names, log, onSpan, catalogs, repairs } = deps;
  const { checker, valueSets } = core;
  // A mismatch changes nothing about the call, and no repair is followed:
  // values out of their sets take the in-set path and the lane too
  // (docs/decisions/0035-observed-mismatches-on-the-lane.md).
  const observing = checker.mode === 'observe' && repairs === undefined;

  // The series the previous finding counted in: calls come one after the
  // other with the same tool, argument and attribution, which settle it by
  // pointer. Series never move, so the one kept never goes stale.
  let seriesEntry: ToolEntry | undefined;
  let seriesArgument: string | undefined;
  let seriesAttribution: Attribution | undefined;
  let lastSeries: ArgumentSeries | undefined;

  /** The series a finding counts in: its argument's, in the call's attribution. */
  const seriesOf = (
    entry: ToolEntry,
    argument: string,
    attribution: Attribution,
  ): ArgumentSeries | undefined => {
    if (entry === seriesEntry && argument === seriesArgument && attribution === seriesAttribution) {
      return lastSeries;
    }
    const plain = seriesFor(entry, argument);
    const series =
      plain === undefined || attribution.id === 0
        ? plain
        : (plain.variants[attribution.id] ?? registry.argumentVariant(plain, attribution));
    seriesEntry = entry;
    seriesArgument = argument;
    seriesAttribution = attribution;
    lastSeries = series;
    return series;
  };

  /**
   * Count an outcome into its pre-allocated slots and return the call's
   * coverage slot. The hot path does one lookup per finding and increments
   * numbers: no attribute objects, no clock, no random draw and no context
   * read unless a log record is due.
   */
  const count = (
    outcome: CheckOutcome,
    entry: ToolEntry,
    ctx: CallContext | undefined,
    attribution: Attribution,
  ): number => {
    const rewritten = outcome.action === 'call_rewritten';
    const findings = outcome.findings;
    let coverage = COVERAGE_SLOT.none;
    for (let i = 0; i < findings.length; i++) {
      const finding = findings[i] as Finding;
      const series = seriesOf(entry, finding.argument, attribution);
      if (series === undefined) continue;
      const counts = series.counts;
      if (finding.status === 'unavailable') {
        bump(counts, REASON_SLOT[finding.reason]);
        if (coverage === COVERAGE_SLOT.none) coverage = COVERAGE_SLOT.unavailable;
        continue;
      }
      coverage = COVERAGE_SLOT.checked;
      if (finding.inSet) {
        bump(counts, SLOT.IN_SET);
      } else {
        bumpMismatch(counts, finding);
        // The core rewrites exactly the case and format variants (in_set_normalised) when it rewrites at all.
        if (rewritten && finding.inSetNormalised && finding.canonical !== undefined) {
          bump(counts, SLOT.REWRITTEN);
        }
      }
      log.offer(series, finding, ctx);
    }
    if (outcome.action === 'reject') {
      const tool =
        attribution.id === 0 ? entry.series : registry.toolVariant(entry.series, attribution);
      tool.repairStarted++;
    }
    return coverage;
  };

  /**
   * Count an outcome of the in-set path (`in-set-call.ts`): its findings are
   * the plan's arguments present, in order, each in its set (or, in
   * `observe` mode, a string out of it).
   */
  const countInSet = (
    outcome: CheckOutcome,
    plan: readonly InSetArgument[],
    ctx: CallContext | undefined,
    attribution: Attribution,
  ): void => {
    const findings = outcome.findings;
    let next = 0;
    for (let i = 0; i < plan.length && next < findings.length; i++) {
      const argument = plan[i] as InSetArgument;
      const finding = findings[next] as CheckedFinding;
      if (finding.argument !== argument.key) continue;
      next++;
      const plain = argument.series;
      const series =
        attribution.id === 0
          ? plain
          : (plain.variants[attribution.id] ?? registry.argumentVariant(plain, attribution));
      if (finding.inSet) bump(series.counts, SLOT.IN_SET);
      else bumpMismatch(series.counts, finding);
      log.offer(series, finding, ctx);
    }
  };

  /** Reject mode: settle the repairs this call is the retry of; a rejected call starts its own. */
  const repaired = (
    outcome: CheckOutcome,
    entry: ToolEntry,
    key: string,
    ctx: CallContext | undefined,
    scope: object | undefined,
    attribution: Attribution,
    run: Run | undefined,
  ): void => {
    if (repairs === undefined) return;
    const rejected = outcome.action === 'reject';
    if (repairs.idle && !rejected) return;
    const correlation = repairKey(ctx, scope, run);
    const tool = names.configured(key) ?? key;
    repairs.settle(correlation, tool, outcome.findings);
    if (rejected) {
      repairs.rejected(correlation, tool, outcome.findings, (finding) =>
        seriesOf(entry, finding.argument, attribution),
      );
    }
  };
  // The tool of the previous call: a dispatcher mostly checks one tool over
  // and over, usually with the same string object, which `===` settles by
  // pointer where the map lookup hashes. The table never changes, so the
  // entry kept never goes stale.
  let lastTool: string | undefined;
  let lastKey: string | undefined;
  let lastEntry: ToolEntry | undefined;
  let lastPlan: InSetPlan;
  /** Each tool's in-set plan, made at its first call. */
  const plans = new Map<string, InSetPlan>();

  const entryOf = (tool: string): ToolEntry | undefined => {
    if (tool === lastTool) return lastEntry;
    let key: string | undefined = tool;
    let entry = table.get(tool);
    if (entry === undefined) {
      // A framework's prefixed name for a configured tool (tool-names.ts).
      key = names.configured(tool);
      entry = key === undefined ? undefined : table.get(key);
    }
    let plan: InSetPlan;
    if (entry !== undefined && key !== undefined) {
      if (plans.has(key)) plan = plans.get(key);
      else plans.set(key, (plan = inSetPlan(core, key, entry)));
    }
    lastTool = tool;
    lastKey = key;
    lastEntry = entry;
    lastPlan = plan;
    return entry;
  };

  /** A framework's tool names come from its own registry; an MCP call's from the listing, if there. */
  const listed = (tool: string, integration: IntegrationName, scope: object | undefined) =>
    integration === 'mcp'
      ? scope !== undefined && catalogs.inCatalog(scope, tool)
      : integration !== 'dispatcher';

  const noChecked = (integration: IntegrationName, scope: object | undefined) =>
    integration === 'mcp' && scope !== undefined && catalogs.unlisted(scope)
      ? COVERAGE_SLOT.unlisted
      : COVERAGE_SLOT.none;

  const callOf = (
    entry: ToolEntry,
    key: string,
    integration: IntegrationName,
    scope: object | undefined,
  ): CallSeries => {
    const slot = INTEGRATION_SLOT[integration];
    let series = entry.calls[slot];
    if (series === undefined) {
      const name = names.configured(key) ?? key;
      series = registry.call(name, integration, listed(key, integration, scope));
      entry.calls[slot] = series;
    }
    return series;
  };

  // The call series the previous call counted in: calls come one after the
  // other from one integration, for one tool, in one attribution.
  let callsEntry: ToolEntry | undefined;
  let callsIntegration: IntegrationName | undefined;
  let callsAttribution: Attribution | undefined;
  let lastCalls: CallSeries | undefined;

  /** The `tool_argument_call` series a call of a checked tool counts in. */
  const callsOf = (
    entry: ToolEntry,
    key: string,
    integration: IntegrationName,
    scope: object | undefined,
    attribution: Attribution,
  ): CallSeries => {
    if (
      entry === callsEntry &&
      integration === callsIntegration &&
      attribution === callsAttribution &&
      lastCalls !== undefined
    ) {
      return lastCalls;
    }
    const calls = callOf(entry, key, integration, scope);
    const series =
      attribution.id === 0
        ? calls
        : (calls.variants[attribution.id] ?? registry.callVariant(calls, attribution));
    callsEntry = entry;
    callsIntegration = integration;
    callsAttribution = attribution;
    lastCalls = series;
    return series;
  };

  /** An argument's series on a lane: the plan's, or the attribution's variant, made once. */
  const laneSeries = (lane: InSetLane, i: number): ArgumentSeries => {
    const known = lane.series[i];
    if (known !== undefined) return known;
    const plain = lane.plain[i] as ArgumentSeries;
    const id = lane.attribution.id;
    const series = plain.variants[id] ?? registry.argumentVariant(plain, lane.attribution);
    lane.series[i] = series;
    return series;
  };

  return {
    lane(tool, integration, scope, attribution) {
      if (onSpan !== undefined) return undefined;
      try {
        const entry = entryOf(tool);
        const plan = lastPlan;
        if (entry === undefined || plan === undefined) return undefined;
        return {
          keys: plan.map((argument) => argument.key),
          sets: plan.map((argument) => argument.set),
          plain: plan.map((argument) => argument.series),
          series: plan.map((argument) => (attribution.id === 0 ? argument.series : undefined)),
          attribution,
          calls: callsOf(entry, lastKey as string, integration, scope, attribution).counts,
          mismatches: observing,
          values: plan.map(() => undefined),
          found: plan.map(() => undefined),
          busy: false,
        };
      } catch {
        return undefined;
      }
    },

    countLane(lane, args, ctx) {
      if (lane.busy || (repairs !== undefined && !repairs.idle)) return false;
      lane.busy = true;
      try {
        const { keys, sets, values } = lane;
        let present = 0;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          if (!Object.hasOwn(args, key)) {
            values[i] = undefined;
            continue;
          }
          const value = (args as Record<string, unknown>)[key];
          if (typeof value !== 'string') return false;
          const lookup = valueSets.get(sets[i] as string);
          if (lookup.state === 'unavailable') return false;
          if (!lookup.set.has(value)) {
            if (!lane.mismatches) return false;
            lane.found[i] = mismatchOf(key, sets[i] as string, value, lookup.set.classify(value));
          }
          values[i] = value;
          // Made before anything is counted: a failure leaves the call to `check` uncounted.
          laneSeries(lane, i);
          present++;
        }
        if (present === 0) return false;
        for (let i = 0; i < keys.length; i++) {
          const value = values[i];
          if (value === undefined) continue;
          const series = lane.series[i] as ArgumentSeries;
          const mismatch = lane.found[i];
          if (mismatch !== undefined) {
            // As `count` counts a mismatch the core found (nothing is rewritten in `observe`).
            bumpMismatch(series.counts, mismatch);
            log.offer(series, mismatch, ctx);
            continue;
          }
          bump(series.counts, SLOT.IN_SET);
          if (log.due()) {
            // The core's in-set finding, property for property.
            const finding: CheckedFinding = {
              argument: keys[i] as string,
              set: sets[i] as string,
              value,
              status: 'checked',
              inSet: true,
              inSetNormalised: true,
            };
            log.record(series, finding, ctx);
          }
        }
        bump(lane.calls, COVERAGE_SLOT.checked);
        return true;
      } catch {
        // Only the first pass can throw (a variant made), before anything is counted.
        return false;
      } finally {
        // Not kept past the call: a value may be a slice of a much larger string.
        const { values, found } = lane;
        for (let i = 0; i < values.length; i++) {
          values[i] = undefined;
          found[i] = undefined;
        }
        lane.busy = false;
      }
    },

    check(tool, args, ctx, integration, scope, attribution = NO_ATTRIBUTION, run) {
      let entry: ToolEntry | undefined;
      try {
        entry = entryOf(tool);
      } catch {
        entry = undefined;
      }
      // The table has every tool with a checked argument, so the checker would
      // answer this one with no findings: answer it here, without calling it.
      if (entry === undefined) {
        try {
          const name = names.configured(tool) ?? tool;
          const series = registry.callVariant(
            registry.call(name, integration, listed(tool, integration, scope)),
            attribution,
          );
          bump(series.counts, noChecked(integration, scope));
        } catch {
          // Telemetry never affects the call.
        }
        return { tool, action: 'call', args, findings: NO_FINDINGS };
      }
      const key = lastKey as string;
      const plan = lastPlan;
      const inSet =
        plan !== undefined && typeof args === 'object' && args !== null
          ? inSetOutcome(valueSets, plan, key, args, observing)
          : undefined;
      if (inSet !== undefined) {
        try {
          countInSet(inSet, plan as readonly InSetArgument[], ctx, attribution);
          bump(callsOf(entry, key, integration, scope, attribution).counts, COVERAGE_SLOT.checked);
          if (repairs !== undefined) repaired(inSet, entry, key, ctx, scope, attribution, run);
        } catch {
          // Telemetry never affects the call.
        }
        if (onSpan !== undefined) onSpan(inSet);
        return inSet;
      }
      let outcome: CheckOutcome;
      try {
        // The core checker does not read the context; a deferred one stays unread here.
        outcome = checker.check(key, args, typeof ctx === 'function' ? undefined : ctx);
      } catch {
        return { tool, action: 'call', args, findings: NO_FINDINGS };
      }
      try {
        let coverage = COVERAGE_SLOT.none;
        if (outcome.findings.length > 0) coverage = count(outcome, entry, ctx, attribution);
        if (coverage === COVERAGE_SLOT.none) coverage = noChecked(integration, scope);
        bump(callsOf(entry, key, integration, scope, attribution).counts, coverage);
        if (repairs !== undefined && outcome.findings.length > 0) {
          repaired(outcome, entry, key, ctx, scope, attribution, run);
        }
      } catch {
        // Telemetry never affects the call.
      }
      if (onSpan !== undefined && outcome.findings.length > 0) onSpan(outcome);
      return outcome;
    },
  };
}
