/**
 * The common call, answered without the core checker's general machinery:
 * every checked argument of the tool is a top-level property (`reason_code`,
 * no dots or `[]`), and every one the call carries is a string member of its
 * set, loaded. The outcome is the very one the core checker gives such a
 * call (`{ tool, action: 'call', args, findings }`, one in-set finding per
 * argument present, in the order configured), so counting it is the same
 * too. For a checker in `observe` mode, which changes nothing about a
 * call, a string out of its set is answered here as well, with the core's
 * finding for it, the set's own classification
 * (docs/decisions/0035-observed-mismatches-on-the-lane.md). Anything else
 * (a value not in its set in another mode, not a string, a set
 * unavailable, no checked argument present, a JSON text, a deeper path) is
 * left to the core checker, which reads the arguments again.
 *
 * Inside a framework's turn a call's own work is a small part of what it
 * costs: most of it is the code and data it touches for the first time in
 * the turn. This path touches one function and the tool's plan where the
 * general one goes through the core's plan lookup, argument loop, judgement
 * and outcome assembly, and the counter's per-finding lookups
 * (docs/decisions/0033-one-path-for-in-set-calls.md).
 */
import type { CheckOutcome, Classification, Finding, ValueSetProvider } from '@argcheck/core';
import type { CheckedFinding } from '../logs/check-log.js';
import { seriesFor } from '../telemetry/series.js';
import type { ArgumentSeries, ToolEntry } from '../telemetry/series.js';

/** The configured paths of each tool a core checker was made with, and the provider of their sets. */
export interface CheckerInputs {
  readonly checkedArguments: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly valueSets: ValueSetProvider;
}

/** One checked argument of a tool whose arguments are all top-level properties. */
export interface InSetArgument {
  /** The property, which is also the argument path as configured. */
  readonly key: string;
  readonly set: string;
  /** Its series (not an attribution's variant). */
  readonly series: ArgumentSeries;
}

/** A tool's arguments in the order configured, or `undefined`: the tool takes the general path. */
export type InSetPlan = readonly InSetArgument[] | undefined;

/** A path the core reads as one own property: no `.`, `[` or `]` (`checker/argument-path.ts` in the core). */
const TOP_LEVEL = /^[^.[\]]+$/;

/**
 * The plan of `tool` (a key of the series table, `entry` its entry), made
 * once per tool: `undefined` when any argument is deeper than a top-level
 * property or has no series of its own set in the table.
 */
export function inSetPlan(inputs: CheckerInputs, tool: string, entry: ToolEntry): InSetPlan {
  const paths = Object.hasOwn(inputs.checkedArguments, tool)
    ? inputs.checkedArguments[tool]
    : undefined;
  if (paths === undefined) return undefined;
  const plan: InSetArgument[] = [];
  for (const [path, set] of Object.entries(paths)) {
    const series = seriesFor(entry, path);
    if (!TOP_LEVEL.test(path) || series === undefined || series.set !== set) return undefined;
    plan.push({ key: path, set, series });
  }
  return plan.length > 0 ? plan : undefined;
}

/**
 * The core checker's outcome for this call when every checked argument it
 * carries is a string member of its set, or with `mismatches` (an `observe`
 * checker, which changes nothing about a call) a string of a loaded set;
 * `undefined` otherwise (and for arguments that are not a plain object, or
 * that throw as they are read). Synchronous; never throws.
 */
export function inSetOutcome(
  valueSets: ValueSetProvider,
  plan: readonly InSetArgument[],
  tool: string,
  args: object,
  mismatches = false,
): CheckOutcome | undefined {
  if (Array.isArray(args)) return undefined;
  try {
    let findings: Finding[] | undefined;
    for (let i = 0; i < plan.length; i++) {
      const argument = plan[i] as InSetArgument;
      const key = argument.key;
      if (!Object.hasOwn(args, key)) continue;
      const value = (args as Record<string, unknown>)[key];
      if (typeof value !== 'string') return undefined;
      const lookup = valueSets.get(argument.set);
      if (lookup.state === 'unavailable') return undefined;
      let finding: Finding;
      if (lookup.set.has(value)) {
        // The core's in-set finding, property for property.
        finding = {
          argument: key,
          set: argument.set,
          value,
          status: 'checked',
          inSet: true,
          inSetNormalised: true,
        };
      } else if (mismatches) {
        finding = mismatchOf(key, argument.set, value, lookup.set.classify(value));
      } else {
        return undefined;
      }
      if (findings === undefined) findings = [finding];
      else findings.push(finding);
    }
    return findings === undefined ? undefined : { tool, action: 'call', args, findings };
  } catch {
    // A hostile argument: the core checker reads it again, and fails open.
    return undefined;
  }
}

/** The core's finding for a string out of its set, property for property (its `mismatch`). */
export function mismatchOf(
  argument: string,
  set: string,
  value: string,
  { shape, canonical }: Classification,
): CheckedFinding {
  const finding: CheckedFinding = {
    argument,
    set,
    value,
    status: 'checked',
    inSet: false,
    inSetNormalised: shape === 'case' || shape === 'format',
    shape,
  };
  if (canonical !== undefined) finding.canonical = canonical;
  return finding;
}
