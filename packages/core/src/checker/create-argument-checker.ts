import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import { leadingMembers } from '../match/compiled-set.js';
import type {
  ArgumentChecker,
  ArgumentCheckerOptions,
  CheckOutcome,
  Finding,
  ValueSet,
} from '../types.js';
import { collectValues, compileArgumentPath, describeLocation } from './argument-path.js';
import type { ArgumentPath } from './argument-path.js';
import { CHECK_MODES } from '../vocabulary.js';
import { repairMessage } from './repair-message.js';
import type { RejectedArgument, RepairLimits } from './repair-message.js';
import { applyRewrites } from './rewrite.js';
import type { Rewrite } from './rewrite.js';

/** Rewrites and rejections gathered while checking one call (not in `observe`). */
interface Actions {
  rewrites?: Rewrite[];
  rejected?: RejectedArgument[];
}

interface PlannedArgument {
  path: ArgumentPath;
  setName: string;
  /** `reason_code`-style paths read one own property, with no allocation. */
  simpleKey: string | undefined;
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);

function integerOption(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      `${name} must be an integer >= ${min}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function planArguments(options: ArgumentCheckerOptions): Map<string, PlannedArgument[]> {
  const { checkedArguments, valueSets } = options;
  if (typeof checkedArguments !== 'object' || checkedArguments === null) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      'checkedArguments must be an object: { [tool]: { [argumentPath]: setName } }.',
    );
  }
  const known = new Set(valueSets.names());
  const plans = new Map<string, PlannedArgument[]>();
  for (const [tool, paths] of Object.entries(checkedArguments)) {
    if (typeof paths !== 'object' || paths === null) {
      throw new ArgcheckConfigError(
        ErrorCode.INVALID_OPTION,
        `checkedArguments["${tool}"] must be an object of argument path → set name.`,
      );
    }
    const planned: PlannedArgument[] = [];
    for (const [text, setName] of Object.entries(paths)) {
      const path = compileArgumentPath(text, tool);
      if (typeof setName !== 'string' || !known.has(setName)) {
        throw new ArgcheckConfigError(
          ErrorCode.UNKNOWN_SET,
          `checkedArguments["${tool}"]["${text}"] names the value set ${JSON.stringify(setName)}, ` +
            `which no source provides. Known sets: ${[...known].sort().join(', ') || '(none)'}.`,
        );
      }
      const only = path.segments.length === 1 ? path.segments[0] : undefined;
      const simpleKey = only && only.arrays === 0 ? only.key : undefined;
      planned.push({ path, setName, simpleKey });
    }
    plans.set(tool, planned);
  }
  return plans;
}

function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return undefined;
  }
}

/** Create a checker: synchronous, total, never mutates the arguments it is given. */
export function createArgumentChecker(options: ArgumentCheckerOptions): ArgumentChecker {
  if (typeof options !== 'object' || options === null) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      'createArgumentChecker needs an options object.',
    );
  }
  const mode = options.mode ?? 'observe';
  if (!(CHECK_MODES as readonly unknown[]).includes(mode)) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      `mode must be one of ${CHECK_MODES.join(', ')}, got ${JSON.stringify(mode)}.`,
    );
  }
  const provider = options.valueSets;
  if (typeof provider?.get !== 'function' || typeof provider.names !== 'function') {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      'valueSets must be a value-set provider (createValueSetProvider).',
    );
  }
  const limits: RepairLimits = {
    listAllUpTo: integerOption('listAllUpTo', options.listAllUpTo, 20, 0),
    suggestionCount: integerOption('suggestionCount', options.suggestionCount, 5, 0),
    maxLength: integerOption('maxRepairMessageLength', options.maxRepairMessageLength, 1_000, 80),
    quotePrefixLength: integerOption('quotePrefixLength', options.quotePrefixLength, 40, 0),
  };
  const plans = planArguments(options);
  const setNames = Object.freeze(
    [...new Set([...plans.values()].flatMap((p) => p.map((a) => a.setName)))].sort(),
  );

  /** Membership and shape of one value; allocates only the finding. */
  function judge(arg: PlannedArgument, value: unknown): Finding {
    const lookup = provider.get(arg.setName);
    if (lookup.state === 'unavailable') {
      return {
        argument: arg.path.text,
        set: arg.setName,
        value,
        status: 'unavailable',
        reason: lookup.reason,
      };
    }
    if (typeof value === 'string' && lookup.set.has(value)) {
      return {
        argument: arg.path.text,
        set: arg.setName,
        value,
        status: 'checked',
        inSet: true,
        inSetNormalised: true,
      };
    }
    return mismatch(arg, lookup.set, value);
  }

  /** What `normalise` and `reject` do with a mismatch: a rewrite, or a rejection. */
  function act(
    run: Actions,
    arg: PlannedArgument,
    finding: CheckedFinding,
    location: readonly (string | number)[],
  ): void {
    const fixable = finding.shape === 'case' || finding.shape === 'format';
    if (fixable && finding.canonical !== undefined) {
      (run.rewrites ??= []).push({ location, value: finding.canonical });
      return;
    }
    const lookup = provider.get(arg.setName);
    if (mode !== 'reject' || lookup.state === 'unavailable') return;
    const { set } = lookup;
    const value = finding.value;
    const suggestions =
      typeof value === 'string'
        ? set.suggest(value, limits.suggestionCount)
        : leadingMembers(set, limits.suggestionCount);
    finding.suggestions = suggestions;
    (run.rejected ??= []).push({
      where: describeLocation(location),
      setName: arg.setName,
      value,
      set,
      suggestions,
    });
  }

  function checkParsed(tool: string, original: unknown, args: unknown): CheckOutcome {
    const plan = plans.get(tool);
    if (plan === undefined || typeof args !== 'object' || args === null) {
      return { tool, action: 'call', args: original, findings: NO_FINDINGS };
    }
    let findings: Finding[] | undefined;
    let run: Actions | undefined;
    const acting = mode !== 'observe';
    for (const arg of plan) {
      const key = arg.simpleKey;
      // The common `reason_code` path reads one own property: no located-value
      // objects on the hot path (a concrete location only when acting on it).
      if (key !== undefined) {
        if (Array.isArray(args) || !Object.hasOwn(args, key)) continue;
        const finding = judge(arg, (args as Record<string, unknown>)[key]);
        // `[finding]` allocates a backing store of one element; `[]` then `push`
        // grows one of 17 (V8: n + n/2 + 16), the largest allocation of an
        // in-set check (~130 → ~100 ns through the instrumentation).
        if (findings === undefined) findings = [finding];
        else findings.push(finding);
        if (acting && finding.status === 'checked' && !finding.inSet) {
          act((run ??= {}), arg, finding, [key]);
        }
        continue;
      }
      for (const { value, location } of collectValues(args, arg.path)) {
        const finding = judge(arg, value);
        if (findings === undefined) findings = [finding];
        else findings.push(finding);
        if (acting && finding.status === 'checked' && !finding.inSet) {
          act((run ??= {}), arg, finding, location);
        }
      }
    }
    const rejected = run?.rejected;
    const rewrites = run?.rewrites;
    if (findings === undefined)
      return { tool, action: 'call', args: original, findings: NO_FINDINGS };
    if (rejected !== undefined) {
      return {
        tool,
        action: 'reject',
        args: original,
        findings,
        repairMessage: repairMessage(tool, rejected, limits),
      };
    }
    if (rewrites !== undefined) {
      const rewritten = applyRewrites(args, rewrites);
      return {
        tool,
        action: 'call_rewritten',
        args: typeof original === 'string' ? JSON.stringify(rewritten) : rewritten,
        findings,
      };
    }
    return { tool, action: 'call', args: original, findings };
  }

  return {
    mode,
    setNames,
    check(tool, args) {
      try {
        return checkParsed(tool, args, parseArgs(args));
      } catch {
        // A hostile argument (a throwing getter, a Proxy) must not fail the call.
        return { tool, action: 'call', args, findings: NO_FINDINGS };
      }
    },
  };
}

type CheckedFinding = Extract<Finding, { status: 'checked' }>;

// Plain literals, not spreads of a shared base: on Node 20 a spread here cost
// microseconds per mismatch, many times the classification itself.
function mismatch(arg: PlannedArgument, set: ValueSet, value: unknown): CheckedFinding {
  if (typeof value !== 'string') {
    return {
      argument: arg.path.text,
      set: arg.setName,
      value,
      status: 'checked',
      inSet: false,
      inSetNormalised: false,
      shape: 'not_string',
    };
  }
  const { shape, canonical } = set.classify(value);
  const finding: CheckedFinding = {
    argument: arg.path.text,
    set: arg.setName,
    value,
    status: 'checked',
    inSet: false,
    inSetNormalised: shape === 'case' || shape === 'format',
    shape,
  };
  if (canonical !== undefined) finding.canonical = canonical;
  return finding;
}
