import type { Attributes } from '@opentelemetry/api';
import { MISMATCH_SHAPES, UNAVAILABLE_REASONS } from '@argcheck/core';
import type { MismatchShape, UnavailableReason } from '@argcheck/core';
import type { SourceKind, ValueSet, ValueSetEvent } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_CHANGE,
  ATTR_COVERAGE,
  ATTR_INTEGRATION,
  COVERAGE_VALUES,
  INTEGRATION_VALUES,
  TOOL_UNNAMED,
  ATTR_OUTCOME,
  ATTR_SOURCE,
  FETCH_OUTCOME_VALUES,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_REASON,
  ATTR_REPAIR_OUTCOME,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  BOOLEAN_VALUES,
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  REPAIR_OUTCOME_VALUES,
  SET_CHANGE_VALUES,
} from '../semconv.js';
import type { Coverage, IntegrationName, RepairOutcome } from '../semconv.js';
import { NO_ATTRIBUTION, createAttributions } from './attribution.js';
import type { Attribution, Attributions, AttributionsOptions } from './attribution.js';
import { safeName } from './safe-name.js';

/**
 * The counts of one checked argument live in a `Float64Array`, a slot per
 * series, read by the metrics callback at collection time
 * (docs/decisions/0011-slot-counters.md says why not `counter.add`). The
 * layout follows the closed lists of `@argcheck/core`, so a new shape or
 * reason gets its slot and its series without further code:
 *
 * | slots                   | instrument                        |
 * | ----------------------- | --------------------------------- |
 * | in set / normalised only / not in set | `tool_argument_value_check` (in_set="true" with in_set_normalised="false" cannot happen) |
 * | one per shape           | `tool_argument_mismatch`          |
 * | one per reason          | `tool_argument_check_unavailable` |
 * | one                     | `tool_argument_rewritten`         |
 * | one per repair outcome  | `tool_argument_repair_outcome`    |
 *
 * A series is one attribution's (`attribution.ts`): the plain series has
 * none, and each attribution seen gets a variant of it, made on first use,
 * with the same names plus the attribution's attributes.
 */
const FIRST_SHAPE = 3;
const FIRST_REASON = FIRST_SHAPE + MISMATCH_SHAPES.length;
const REWRITTEN = FIRST_REASON + UNAVAILABLE_REASONS.length;
const FIRST_REPAIR_OUTCOME = REWRITTEN + 1;

export const SLOT = {
  IN_SET: 0,
  IN_SET_NORMALISED_ONLY: 1,
  NOT_IN_SET: 2,
  REWRITTEN,
  COUNT: FIRST_REPAIR_OUTCOME + REPAIR_OUTCOME_VALUES.length,
} as const;

function slotsOf<K extends string>(keys: readonly K[], first: number): Readonly<Record<K, number>> {
  return Object.freeze(Object.fromEntries(keys.map((key, i) => [key, first + i]))) as Record<
    K,
    number
  >;
}

export const SHAPE_SLOT: Readonly<Record<MismatchShape, number>> = slotsOf(
  MISMATCH_SHAPES,
  FIRST_SHAPE,
);
export const REASON_SLOT: Readonly<Record<UnavailableReason, number>> = slotsOf(
  UNAVAILABLE_REASONS,
  FIRST_REASON,
);
export const REPAIR_OUTCOME_SLOT: Readonly<Record<RepairOutcome, number>> = slotsOf(
  REPAIR_OUTCOME_VALUES,
  FIRST_REPAIR_OUTCOME,
);

/** The slots `[from, to)` each per-argument counter reports. */
export const SLOT_RANGES = {
  [METRIC_TOOL_ARGUMENT_VALUE_CHECK]: [SLOT.IN_SET, FIRST_SHAPE],
  [METRIC_TOOL_ARGUMENT_MISMATCH]: [FIRST_SHAPE, FIRST_REASON],
  [METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE]: [FIRST_REASON, REWRITTEN],
  [METRIC_TOOL_ARGUMENT_REWRITTEN]: [REWRITTEN, FIRST_REPAIR_OUTCOME],
  [METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME]: [FIRST_REPAIR_OUTCOME, SLOT.COUNT],
} as const;

/** The counters of one checked argument: a slot per series, its attributes allocated once. */
export interface ArgumentSeries {
  readonly tool: string;
  readonly argument: string;
  readonly set: string;
  readonly counts: Float64Array;
  /** `attributes[slot]` is the attribute set of the series counted in `counts[slot]`. */
  readonly attributes: readonly Attributes[];
  /** `tool`, `argument` and `set` as attribute values (`safeName`), and the attribution's: what log records carry. */
  readonly names: Readonly<Record<string, string>>;
  readonly attribution: Attribution;
  /** The plain series' variants by attribution id (on the plain series only). */
  readonly variants: (ArgumentSeries | undefined)[];
}

/** `tool_argument_repair_started`, per tool. */
export interface ToolSeries {
  readonly tool: string;
  readonly attributes: Attributes;
  repairStarted: number;
  readonly variants: (ToolSeries | undefined)[];
}

/** `tool_argument_call` of one tool as one integration sees it: a count per coverage. */
export interface CallSeries {
  readonly tool: string;
  readonly integration: IntegrationName;
  /** `counts[COVERAGE_SLOT[c]]` counts coverage `c`, whose attributes are `attributes[slot]`. */
  readonly counts: Float64Array;
  readonly attributes: readonly Attributes[];
  readonly variants: (CallSeries | undefined)[];
}

export const COVERAGE_SLOT: Readonly<Record<Coverage, number>> = slotsOf(COVERAGE_VALUES, 0);
export const INTEGRATION_SLOT: Readonly<Record<IntegrationName, number>> = slotsOf(
  INTEGRATION_VALUES,
  0,
);

/**
 * Most distinct tool names from catalogs (MCP listings, framework tool maps)
 * that get `tool_argument_call` series of their own over the registry's
 * life; later ones count under `TOOL_UNNAMED`. Configured tools always do.
 */
export const MAX_CALL_TOOLS = 1_000;

/** `tool_argument_value_set_fetch` of one value set: a count per outcome. */
export interface SetSeries {
  readonly set: string;
  readonly source: SourceKind;
  /** `fetches[i]` counts outcome `FETCH_OUTCOMES[i]`, whose attributes are `attributes[i]`. */
  readonly fetches: Float64Array;
  readonly attributes: readonly Attributes[];
  /** `tool_argument_value_set_change`: `changes[i]` counts `SET_CHANGE_VALUES[i]`. */
  readonly changes: Float64Array;
  readonly changeAttributes: readonly Attributes[];
}

/** The `outcome` values of a fetch, in slot order. */
export const FETCH_OUTCOMES: readonly string[] = Object.values(FETCH_OUTCOME_VALUES);

/**
 * Every series this instrumentation can report. Series are keyed by
 * (tool, argument, set) and never removed, so counters stay monotonic when a
 * catalog or the configuration is rebuilt, and the number of series is fixed
 * by configuration plus the derived-argument budget. Every series is
 * reported from the moment it exists, at zero until it counts something, so
 * a burst right after start-up is seen by `rate()` and `increase()`.
 */
export interface SeriesRegistry {
  /** Series for a configured argument; always allocated. */
  configured(tool: string, argument: string, set: string): ArgumentSeries;
  /**
   * Series for a catalog-derived argument, or `undefined` when it is new and
   * `budget` derived series exist already.
   */
  derived(tool: string, argument: string, set: string, budget: number): ArgumentSeries | undefined;
  tool(tool: string): ToolSeries;
  /**
   * The `tool_argument_call` series of a call of `tool` seen by
   * `integration`. `tool` becomes an attribute value only when it is
   * configured, or `listed` (it comes from a catalog the integration read)
   * and within `MAX_CALL_TOOLS`; otherwise the call counts under `TOOL_UNNAMED`.
   */
  call(tool: string, integration: IntegrationName, listed: boolean): CallSeries;
  /**
   * `integration` sees calls from now on: every configured tool (and
   * `TOOL_UNNAMED`) gets its call series, at zero until counted.
   */
  activate(integration: IntegrationName): void;
  /** A catalog tool name could not get a series of its own (`MAX_CALL_TOOLS`); reported once. */
  onCallToolsSpent?: () => void;
  /** The fetch counts of a value set; always allocated (sets come from configuration or a budgeted catalog). */
  valueSet(set: string, source: SourceKind): SetSeries;
  /** Count a fetch the provider reports (`onEvent`); other events are ignored. */
  fetched(event: ValueSetEvent): void;
  /**
   * The set a fetch of `set` published: members added and removed since the
   * one served before are counted (`tool_argument_value_set_change`).
   */
  served(set: string, source: SourceKind, current: ValueSet): void;
  /** Interns the attribution of a call; shared by every configuration of the instrumentation. */
  readonly attributions: Attributions;
  /** The variant of a plain argument series for `attribution` (the plain series for none). */
  argumentVariant(series: ArgumentSeries, attribution: Attribution): ArgumentSeries;
  toolVariant(series: ToolSeries, attribution: Attribution): ToolSeries;
  callVariant(series: CallSeries, attribution: Attribution): CallSeries;
  readonly arguments: readonly ArgumentSeries[];
  readonly tools: readonly ToolSeries[];
  readonly sets: readonly SetSeries[];
  readonly calls: readonly CallSeries[];
}

function bool(value: boolean): string {
  return value ? BOOLEAN_VALUES.TRUE : BOOLEAN_VALUES.FALSE;
}

function nameAttributes(
  tool: string,
  argument: string,
  set: string,
): Readonly<Record<string, string>> {
  return Object.freeze({
    [ATTR_TOOL]: safeName(tool),
    [ATTR_ARGUMENT]: safeName(argument),
    [ATTR_SET]: safeName(set),
  });
}

function slotAttributes(base: Attributes): Attributes[] {
  const check = (inSet: boolean, normalised: boolean): Attributes => ({
    ...base,
    [ATTR_IN_SET]: bool(inSet),
    [ATTR_IN_SET_NORMALISED]: bool(normalised),
  });
  const attributes: Attributes[] = new Array<Attributes>(SLOT.COUNT);
  attributes[SLOT.IN_SET] = check(true, true);
  attributes[SLOT.IN_SET_NORMALISED_ONLY] = check(false, true);
  attributes[SLOT.NOT_IN_SET] = check(false, false);
  for (const shape of MISMATCH_SHAPES)
    attributes[SHAPE_SLOT[shape]] = { ...base, [ATTR_SHAPE]: shape };
  for (const reason of UNAVAILABLE_REASONS) {
    attributes[REASON_SLOT[reason]] = { ...base, [ATTR_REASON]: reason };
  }
  attributes[SLOT.REWRITTEN] = { ...base };
  for (const outcome of REPAIR_OUTCOME_VALUES) {
    attributes[REPAIR_OUTCOME_SLOT[outcome]] = { ...base, [ATTR_REPAIR_OUTCOME]: outcome };
  }
  return attributes.map((a) => Object.freeze(a));
}

function callAttributes(
  tool: string,
  integration: IntegrationName,
  attribution: Attribution = NO_ATTRIBUTION,
): Attributes[] {
  return COVERAGE_VALUES.map((coverage) =>
    Object.freeze({
      [ATTR_TOOL]: safeName(tool),
      [ATTR_INTEGRATION]: integration,
      [ATTR_COVERAGE]: coverage,
      ...attribution.attributes,
    }),
  );
}

/**
 * Largest set whose refresh is compared member by member; a larger one
 * counts only what its size says (members added when it grew, removed when
 * it shrank), so that a refresh of a million members does not sort both.
 */
export const MAX_DIFFED_MEMBERS = 200_000;

/** Members of `after` not in `before`, and of `before` not in `after`. */
export function membersChanged(
  before: ValueSet,
  after: ValueSet,
): { added: number; removed: number } {
  if (before.size > MAX_DIFFED_MEMBERS || after.size > MAX_DIFFED_MEMBERS) {
    return {
      added: Math.max(0, after.size - before.size),
      removed: Math.max(0, before.size - after.size),
    };
  }
  let added = 0;
  let removed = 0;
  for (const member of after.members()) if (!before.has(member)) added++;
  for (const member of before.members()) if (!after.has(member)) removed++;
  return { added, removed };
}

/** A registry without a meter's diagnostics (tests): attribution warnings go nowhere. */
const SILENT: AttributionsOptions = {
  maxValues: 10,
  diag: () => ({
    error: () => {},
    warn: () => {},
    info: () => {},
    debug: () => {},
    verbose: () => {},
  }),
};

export function createSeriesRegistry(options: AttributionsOptions = SILENT): SeriesRegistry {
  const attributions = createAttributions(options);
  /** The set each configured value set served last, for `served`. */
  const held = new Map<string, ValueSet>();
  const byKey = new Map<string, ArgumentSeries>();
  const byTool = new Map<string, ToolSeries>();
  const argumentList: ArgumentSeries[] = [];
  const toolList: ToolSeries[] = [];
  const bySet = new Map<string, SetSeries>();
  const setList: SetSeries[] = [];
  let derivedCount = 0;
  /** Tool name → its call series, one slot per integration. */
  const byCallTool = new Map<string, (CallSeries | undefined)[]>();
  const callList: CallSeries[] = [];
  const configuredTools = new Set<string>();
  const activeIntegrations = new Set<IntegrationName>();
  let listedCallTools = 0;
  let callToolsReported = false;

  const callSeries = (name: string, integration: IntegrationName): CallSeries => {
    let slots = byCallTool.get(name);
    if (slots === undefined) {
      slots = new Array<CallSeries | undefined>(INTEGRATION_VALUES.length);
      byCallTool.set(name, slots);
    }
    const slot = INTEGRATION_SLOT[integration];
    let series = slots[slot];
    if (series === undefined) {
      series = {
        tool: name,
        integration,
        counts: new Float64Array(COVERAGE_VALUES.length),
        attributes: Object.freeze(callAttributes(name, integration)),
        variants: [],
      };
      slots[slot] = series;
      callList.push(series);
    }
    return series;
  };

  const valueSet = (set: string, source: SourceKind): SetSeries => {
    const key = JSON.stringify([set, source]);
    let series = bySet.get(key);
    if (series === undefined) {
      const base = { [ATTR_SET]: safeName(set), [ATTR_SOURCE]: source };
      series = {
        set,
        source,
        fetches: new Float64Array(FETCH_OUTCOMES.length),
        attributes: FETCH_OUTCOMES.map((outcome) =>
          Object.freeze({ ...base, [ATTR_OUTCOME]: outcome }),
        ),
        changes: new Float64Array(SET_CHANGE_VALUES.length),
        changeAttributes: SET_CHANGE_VALUES.map((change) =>
          Object.freeze({ ...base, [ATTR_CHANGE]: change }),
        ),
      };
      bySet.set(key, series);
      setList.push(series);
    }
    return series;
  };

  const tool = (name: string): ToolSeries => {
    let series = byTool.get(name);
    if (series === undefined) {
      series = {
        tool: name,
        attributes: Object.freeze({ [ATTR_TOOL]: safeName(name) }),
        repairStarted: 0,
        variants: [],
      };
      byTool.set(name, series);
      toolList.push(series);
    }
    return series;
  };

  const allocate = (
    key: string,
    toolName: string,
    argument: string,
    set: string,
  ): ArgumentSeries => {
    const names = nameAttributes(toolName, argument, set);
    const series: ArgumentSeries = {
      tool: toolName,
      argument,
      set,
      counts: new Float64Array(SLOT.COUNT),
      attributes: Object.freeze(slotAttributes(names)),
      names,
      attribution: NO_ATTRIBUTION,
      variants: [],
    };
    byKey.set(key, series);
    argumentList.push(series);
    tool(toolName);
    return series;
  };

  const registry: SeriesRegistry = {
    configured(toolName, argument, set) {
      const key = JSON.stringify([toolName, argument, set]);
      if (!configuredTools.has(toolName)) {
        configuredTools.add(toolName);
        for (const integration of activeIntegrations) callSeries(toolName, integration);
      }
      return byKey.get(key) ?? allocate(key, toolName, argument, set);
    },
    derived(toolName, argument, set, budget) {
      const key = JSON.stringify([toolName, argument, set]);
      const existing = byKey.get(key);
      if (existing !== undefined) return existing;
      if (derivedCount >= budget) return undefined;
      derivedCount++;
      return allocate(key, toolName, argument, set);
    },
    tool,
    call(name, integration, listed) {
      if (configuredTools.has(name)) return callSeries(name, integration);
      if (listed) {
        if (byCallTool.has(name) && name !== TOOL_UNNAMED) return callSeries(name, integration);
        if (listedCallTools < MAX_CALL_TOOLS) {
          listedCallTools++;
          return callSeries(name, integration);
        }
        if (!callToolsReported) {
          callToolsReported = true;
          registry.onCallToolsSpent?.();
        }
      }
      return callSeries(TOOL_UNNAMED, integration);
    },
    activate(integration) {
      if (activeIntegrations.has(integration)) return;
      activeIntegrations.add(integration);
      for (const name of configuredTools) callSeries(name, integration);
      callSeries(TOOL_UNNAMED, integration);
    },
    valueSet,
    fetched(event) {
      let outcome: string;
      if (event.type === 'fetch_succeeded') outcome = FETCH_OUTCOME_VALUES.SUCCESS;
      else if (event.type === 'fetch_failed') outcome = event.reason;
      else return;
      const series = valueSet(event.set, event.source);
      const slot = FETCH_OUTCOMES.indexOf(outcome);
      if (slot >= 0) series.fetches[slot] = (series.fetches[slot] as number) + 1;
    },
    served(set, source, current) {
      const key = JSON.stringify([set, source]);
      const before = held.get(key);
      held.set(key, current);
      if (before === undefined || before === current) return;
      const { added, removed } = membersChanged(before, current);
      if (added === 0 && removed === 0) return;
      const series = valueSet(set, source);
      series.changes[0] = (series.changes[0] as number) + added;
      series.changes[1] = (series.changes[1] as number) + removed;
    },
    attributions,
    argumentVariant(series, attribution) {
      if (attribution.id === 0) return series;
      let variant = series.variants[attribution.id];
      if (variant === undefined) {
        const names = Object.freeze({ ...series.names, ...attribution.attributes });
        variant = {
          tool: series.tool,
          argument: series.argument,
          set: series.set,
          counts: new Float64Array(SLOT.COUNT),
          attributes: Object.freeze(slotAttributes(names)),
          names,
          attribution,
          variants: [],
        };
        series.variants[attribution.id] = variant;
        argumentList.push(variant);
      }
      return variant;
    },
    toolVariant(series, attribution) {
      if (attribution.id === 0) return series;
      let variant = series.variants[attribution.id];
      if (variant === undefined) {
        variant = {
          tool: series.tool,
          attributes: Object.freeze({ ...series.attributes, ...attribution.attributes }),
          repairStarted: 0,
          variants: [],
        };
        series.variants[attribution.id] = variant;
        toolList.push(variant);
      }
      return variant;
    },
    callVariant(series, attribution) {
      if (attribution.id === 0) return series;
      let variant = series.variants[attribution.id];
      if (variant === undefined) {
        variant = {
          tool: series.tool,
          integration: series.integration,
          counts: new Float64Array(COVERAGE_VALUES.length),
          attributes: Object.freeze(callAttributes(series.tool, series.integration, attribution)),
          variants: [],
        };
        series.variants[attribution.id] = variant;
        callList.push(variant);
      }
      return variant;
    },
    arguments: argumentList,
    tools: toolList,
    sets: setList,
    calls: callList,
  };
  return registry;
}

/** The series of one tool's checked arguments, found by the path text the checker reports. */
export interface ToolEntry {
  /** `tool_argument_repair_started` of the tool the series belong to. */
  readonly series: ToolSeries;
  /** Small tools are scanned: the checker reports the very strings configured, so `===` is a pointer compare. */
  readonly list: readonly ArgumentSeries[];
  /** Set for tools with many checked arguments (catalog-derived ones can have dozens). */
  readonly byArgument: ReadonlyMap<string, ArgumentSeries> | undefined;
  /** Its `tool_argument_call` series, per integration slot, made on first use. */
  readonly calls: (CallSeries | undefined)[];
}

export type SeriesTable = ReadonlyMap<string, ToolEntry>;

/** Above this many checked arguments a tool's series are found through a map rather than a scan. */
const SCAN_LIMIT = 8;

/**
 * Index series by the tool name the checker is asked with, then by argument
 * path. `aliases` maps a catalog's name for a configured tool (a framework's
 * `shop_refund_order` for `refund_order`) to the configured name: the alias
 * is checked with the configured tool's series and its own derived ones, and
 * its calls and repairs count under the configured name.
 */
export function seriesTable(
  series: readonly ArgumentSeries[],
  registry: SeriesRegistry,
  aliases: ReadonlyMap<string, string> = new Map(),
): SeriesTable {
  const byTool = new Map<string, ArgumentSeries[]>();
  for (const entry of series) {
    const list = byTool.get(entry.tool);
    if (list === undefined) byTool.set(entry.tool, [entry]);
    else list.push(entry);
  }
  const table = new Map<string, ToolEntry>();
  const add = (key: string, owner: string, list: readonly ArgumentSeries[]) => {
    table.set(key, {
      series: registry.tool(owner),
      list,
      byArgument: list.length > SCAN_LIMIT ? new Map(list.map((s) => [s.argument, s])) : undefined,
      calls: new Array<CallSeries | undefined>(INTEGRATION_VALUES.length),
    });
  };
  for (const [tool, list] of byTool) if (!aliases.has(tool)) add(tool, tool, list);
  for (const [alias, configured] of aliases) {
    add(alias, configured, [...(byTool.get(configured) ?? []), ...(byTool.get(alias) ?? [])]);
  }
  return table;
}

export function seriesFor(tool: ToolEntry, argument: string): ArgumentSeries | undefined {
  if (tool.byArgument !== undefined) return tool.byArgument.get(argument);
  const list = tool.list;
  for (let i = 0; i < list.length; i++) {
    const series = list[i] as ArgumentSeries;
    if (series.argument === argument) return series;
  }
  return undefined;
}
