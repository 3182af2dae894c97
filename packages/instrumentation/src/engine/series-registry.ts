import type { Attributes } from '@opentelemetry/api';
import type { MismatchShape, UnavailableReason } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_REASON,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  BOOLEAN_VALUES,
} from '../semconv.js';

export const SHAPES: readonly MismatchShape[] = [
  'case',
  'format',
  'alias',
  'near_miss',
  'invented',
  'not_string',
];
export const REASONS: readonly UnavailableReason[] = [
  'cold',
  'fetch_failed',
  'timeout',
  'invalid_payload',
  'expired',
  'unknown_set',
];

/**
 * Slot layout of one argument's counts. `in_set="true", in_set_normalised="false"`
 * cannot happen, so `tool_argument_value_check` needs three slots, not four.
 */
export const SLOT = {
  IN_SET: 0,
  IN_SET_NORMALISED_ONLY: 1,
  NOT_IN_SET: 2,
  FIRST_SHAPE: 3,
  FIRST_REASON: 3 + SHAPES.length,
  REWRITTEN: 3 + SHAPES.length + REASONS.length,
  COUNT: 4 + SHAPES.length + REASONS.length,
} as const;

/** The counters of one checked argument: a slot per series, its attributes allocated once. */
export interface ArgumentSeries {
  readonly tool: string;
  readonly argument: string;
  readonly set: string;
  readonly counts: Float64Array;
  /** `attributes[slot]` is the attribute set of the series counted in `counts[slot]`. */
  readonly attributes: readonly Attributes[];
}

export interface ToolSeries {
  readonly tool: string;
  readonly attributes: Attributes;
  repairStarted: number;
}

/**
 * Every series this instrumentation can report. Series are keyed by
 * (tool, argument, set) and never removed, so counters stay monotonic when a
 * catalog or the configuration is rebuilt, and the number of series is fixed
 * by configuration plus the derived-argument budget.
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
  readonly arguments: readonly ArgumentSeries[];
  readonly tools: readonly ToolSeries[];
}

function bool(value: boolean): string {
  return value ? BOOLEAN_VALUES.TRUE : BOOLEAN_VALUES.FALSE;
}

function slotAttributes(tool: string, argument: string, set: string): Attributes[] {
  const base = { [ATTR_TOOL]: tool, [ATTR_ARGUMENT]: argument, [ATTR_SET]: set };
  const check = (inSet: boolean, normalised: boolean): Attributes => ({
    ...base,
    [ATTR_IN_SET]: bool(inSet),
    [ATTR_IN_SET_NORMALISED]: bool(normalised),
  });
  return [
    check(true, true),
    check(false, true),
    check(false, false),
    ...SHAPES.map((shape) => ({ ...base, [ATTR_SHAPE]: shape })),
    ...REASONS.map((reason) => ({ ...base, [ATTR_REASON]: reason })),
    { ...base },
  ].map((attributes) => Object.freeze(attributes));
}

export function createSeriesRegistry(): SeriesRegistry {
  const byKey = new Map<string, ArgumentSeries>();
  const byTool = new Map<string, ToolSeries>();
  const argumentList: ArgumentSeries[] = [];
  const toolList: ToolSeries[] = [];
  let derivedCount = 0;

  const tool = (name: string): ToolSeries => {
    let series = byTool.get(name);
    if (series === undefined) {
      series = { tool: name, attributes: Object.freeze({ [ATTR_TOOL]: name }), repairStarted: 0 };
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
    const series: ArgumentSeries = {
      tool: toolName,
      argument,
      set,
      counts: new Float64Array(SLOT.COUNT),
      attributes: Object.freeze(slotAttributes(toolName, argument, set)),
    };
    byKey.set(key, series);
    argumentList.push(series);
    tool(toolName);
    return series;
  };

  return {
    configured(toolName, argument, set) {
      const key = JSON.stringify([toolName, argument, set]);
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
    arguments: argumentList,
    tools: toolList,
  };
}
