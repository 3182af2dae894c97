import type {
  ArgumentChecker,
  CheckContext,
  CheckOutcome,
  Finding,
  MismatchShape,
  UnavailableReason,
} from '@argcheck/core';
import type { CheckEngine } from '../internal-types.js';
import type { CheckLog } from '../logs/check-log.js';
import { SLOT } from './series-registry.js';
import type { ArgumentSeries, ToolSeries } from './series-registry.js';

/** The series of one tool's checked arguments, looked up by the path text the checker reports. */
export interface CompiledTool {
  readonly series: ToolSeries;
  /** Small tools are scanned: the checker reports the very strings configured, so `===` is a pointer compare. */
  readonly list: readonly ArgumentSeries[];
  /** Set for tools with many checked arguments (catalog-derived ones can have dozens). */
  readonly byArgument: ReadonlyMap<string, ArgumentSeries> | undefined;
}

export type SeriesTable = ReadonlyMap<string, CompiledTool>;

function seriesFor(tool: CompiledTool, argument: string): ArgumentSeries | undefined {
  if (tool.byArgument !== undefined) return tool.byArgument.get(argument);
  const list = tool.list;
  for (let i = 0; i < list.length; i++) {
    const series = list[i] as ArgumentSeries;
    if (series.argument === argument) return series;
  }
  return undefined;
}

const NO_FINDINGS = Object.freeze([]);

function shapeSlot(shape: MismatchShape | undefined): number {
  switch (shape) {
    case 'case':
      return SLOT.FIRST_SHAPE;
    case 'format':
      return SLOT.FIRST_SHAPE + 1;
    case 'alias':
      return SLOT.FIRST_SHAPE + 2;
    case 'near_miss':
      return SLOT.FIRST_SHAPE + 3;
    case 'invented':
      return SLOT.FIRST_SHAPE + 4;
    case 'not_string':
      return SLOT.FIRST_SHAPE + 5;
    default:
      return -1;
  }
}

function reasonSlot(reason: UnavailableReason): number {
  switch (reason) {
    case 'cold':
      return SLOT.FIRST_REASON;
    case 'fetch_failed':
      return SLOT.FIRST_REASON + 1;
    case 'timeout':
      return SLOT.FIRST_REASON + 2;
    case 'invalid_payload':
      return SLOT.FIRST_REASON + 3;
    case 'expired':
      return SLOT.FIRST_REASON + 4;
    case 'unknown_set':
      return SLOT.FIRST_REASON + 5;
    default:
      return -1;
  }
}

function bump(counts: Float64Array, slot: number): void {
  if (slot >= 0) counts[slot] = (counts[slot] as number) + 1;
}

/** A call's context, or a function that reads it when a log record is written. */
type ContextSource = CheckContext | (() => CheckContext) | undefined;

/**
 * Count an outcome into its pre-allocated slots. The hot path does one map
 * lookup per finding and increments numbers: no attribute objects, no clock,
 * no random draw and no context read unless a log record is due.
 */
function record(
  outcome: CheckOutcome,
  compiled: CompiledTool,
  log: CheckLog,
  ctx: ContextSource,
): void {
  const rewritten = outcome.action === 'call_rewritten';
  const findings = outcome.findings;
  for (let i = 0; i < findings.length; i++) {
    const finding = findings[i] as Finding;
    const series = seriesFor(compiled, finding.argument);
    if (series === undefined) continue;
    const counts = series.counts;
    if (finding.status === 'unavailable') {
      bump(counts, reasonSlot(finding.reason));
      continue;
    }
    if (finding.inSet) {
      counts[SLOT.IN_SET] = (counts[SLOT.IN_SET] as number) + 1;
    } else {
      bump(counts, finding.inSetNormalised ? SLOT.IN_SET_NORMALISED_ONLY : SLOT.NOT_IN_SET);
      bump(counts, shapeSlot(finding.shape));
      // Core rewrites exactly the case and format variants (in_set_normalised) when it rewrites at all.
      if (rewritten && finding.inSetNormalised && finding.canonical !== undefined) {
        bump(counts, SLOT.REWRITTEN);
      }
    }
    log.offer(series, finding, ctx);
  }
  if (outcome.action === 'reject') compiled.series.repairStarted++;
}

/** A checker whose outcomes are counted and sampled. Never throws. */
export function createEngine(
  checker: ArgumentChecker,
  table: SeriesTable,
  log: CheckLog,
): CheckEngine {
  // The tool of the previous call: a dispatcher mostly checks one tool over
  // and over, usually with the same string object, which `===` settles by
  // pointer where the map lookup hashes and probes. Only tools found in the
  // table are kept; the table never changes, so the cached entry never goes stale.
  let lastTool: string | undefined;
  let lastCompiled: CompiledTool | undefined;
  const run = (tool: string, args: unknown, ctx: ContextSource): CheckOutcome => {
    let compiled: CompiledTool | undefined;
    if (tool === lastTool) compiled = lastCompiled;
    else {
      compiled = table.get(tool);
      if (compiled !== undefined) {
        lastTool = tool;
        lastCompiled = compiled;
      }
    }
    // The table has every tool with a checked argument, so the checker would
    // answer this one with no findings: answer it here, without calling it.
    if (compiled === undefined) return { tool, action: 'call', args, findings: NO_FINDINGS };
    let outcome: CheckOutcome;
    try {
      // The core checker does not read the context; a deferred one stays unread here.
      outcome = checker.check(tool, args, typeof ctx === 'function' ? undefined : ctx);
    } catch {
      return { tool, action: 'call', args, findings: NO_FINDINGS };
    }
    if (outcome.findings.length > 0) {
      try {
        record(outcome, compiled, log, ctx);
      } catch {
        // Telemetry never affects the call.
      }
    }
    return outcome;
  };
  return { check: run, checkCall: run };
}
