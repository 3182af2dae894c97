import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type {
  ArgumentChecker,
  ArgumentCheckerOptions,
  CheckOutcome,
  Finding,
  RepairDisclosure,
  ValueSet,
  ValueSetProvider,
} from '../types.js';
import { collectValues } from './argument-path.js';
import { CHECK_MODES, REPAIR_DISCLOSURES } from '../vocabulary.js';
import { integerOption, planArguments } from './plan-arguments.js';
import type { PlannedArgument, ToolPlan } from './plan-arguments.js';
import { repairMessage } from './repair-message.js';
import type { RejectedArgument, RepairLimits } from './repair-message.js';
import { applyRewrites, spliceRewrites } from './rewrite.js';
import { ABSENT, readFlat } from './flat-json.js';
import type { Rewrite, TextSpan } from './rewrite.js';

/** Rewrites and rejections gathered while checking one call (not in `observe`). */
interface Actions {
  rewrites?: Rewrite[];
  rejected?: RejectedArgument[];
}

const NO_FINDINGS: readonly Finding[] = Object.freeze([]);
/** JSON texts longer than this go to the text reader: a large text is rarely simple and flat. */
const MAX_QUICK_TEXT = 4_096;

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
    disclosure: disclosureOption(options.repairDisclosure, provider),
  };
  const plans = planArguments(options);
  const setNames = Object.freeze(
    [...new Set([...plans.values()].flatMap((p) => p.arguments.map((a) => a.setName)))].sort(),
  );
  const acting = mode !== 'observe';

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

  /**
   * What `normalise` and `reject` do with a mismatch: a rewrite, or a
   * rejection. Suggestions wait for the repair message, which computes them
   * only for the arguments it describes.
   */
  function act(
    run: Actions,
    arg: PlannedArgument,
    finding: CheckedFinding,
    location: readonly (string | number)[],
    span: TextSpan | undefined,
  ): void {
    const fixable = finding.shape === 'case' || finding.shape === 'format';
    if (fixable && finding.canonical !== undefined) {
      (run.rewrites ??= []).push({ location, value: finding.canonical, span });
      return;
    }
    const lookup = provider.get(arg.setName);
    if (mode !== 'reject' || lookup.state === 'unavailable') return;
    (run.rejected ??= []).push({
      location,
      setName: arg.setName,
      value: finding.value,
      set: lookup.set,
      finding,
    });
  }

  /** The outcome of a checked call whose findings and actions are known. */
  function conclude(
    tool: string,
    original: unknown,
    findings: Finding[] | undefined,
    run: Actions | undefined,
    rewrite: (rewrites: readonly Rewrite[]) => unknown,
  ): CheckOutcome {
    if (findings === undefined) {
      return { tool, action: 'call', args: original, findings: NO_FINDINGS };
    }
    const rejected = run?.rejected;
    if (rejected !== undefined) {
      return {
        tool,
        action: 'reject',
        args: original,
        findings,
        repairMessage: repairMessage(tool, rejected, limits),
      };
    }
    const rewrites = run?.rewrites;
    if (rewrites !== undefined) {
      return { tool, action: 'call_rewritten', args: rewrite(rewrites), findings };
    }
    return { tool, action: 'call', args: original, findings };
  }

  function checkObject(tool: string, plan: ToolPlan, args: object): CheckOutcome {
    let findings: Finding[] | undefined;
    let run: Actions | undefined;
    for (const arg of plan.arguments) {
      const key = arg.simpleKey;
      // The common `reason_code` path reads one own property: no located-value
      // objects on the hot path (a concrete location only when acting on it).
      if (key !== undefined) {
        if (Array.isArray(args) || !Object.hasOwn(args, key)) continue;
        const finding = judge(arg, (args as Record<string, unknown>)[key]);
        // `[finding]`, not `[]` then `push`: the array is sized for one
        // (docs/decisions/0022-in-set-check-allocations.md).
        if (findings === undefined) findings = [finding];
        else findings.push(finding);
        if (acting && finding.status === 'checked' && !finding.inSet) {
          act((run ??= {}), arg, finding, [key], undefined);
        }
        continue;
      }
      for (const { value, location } of collectValues(args, arg.path)) {
        const finding = judge(arg, value);
        if (findings === undefined) findings = [finding];
        else findings.push(finding);
        if (acting && finding.status === 'checked' && !finding.inSet) {
          act((run ??= {}), arg, finding, location, undefined);
        }
      }
    }
    return conclude(tool, args, findings, run, (rewrites) => applyRewrites(args, rewrites));
  }

  /**
   * A JSON text whose checked arguments are simple keys, each written at most
   * once as a string, in a flat object with no escape anywhere: read in one
   * pass that builds nothing but the values (`flat-json.ts`), as the text
   * reader would read it. An outcome that acts on the call (a rewrite or a
   * rejection) is left to the text reader, which keeps the text's own
   * characters; `undefined` means just that, or a text it does not take.
   */
  function quickText(tool: string, plan: ToolPlan, text: string): CheckOutcome | undefined {
    const keys = plan.simpleKeys as readonly string[];
    const found = plan.scratch;
    if (text.length > MAX_QUICK_TEXT || !readFlat(text, keys, found)) return undefined;
    let findings: Finding[] | undefined;
    for (let i = 0; i < keys.length; i++) {
      const value = found[i];
      if (value === ABSENT) continue;
      const finding = judge(plan.arguments[i] as PlannedArgument, value);
      if (acting && finding.status === 'checked' && !finding.inSet) return undefined;
      if (findings === undefined) findings = [finding];
      else findings.push(finding);
    }
    return conclude(tool, text, findings, undefined, () => text);
  }

  /**
   * OpenAI-style arguments: a JSON text, read in place so that a rewrite
   * changes only the rewritten string tokens, and every occurrence of a
   * repeated key is checked.
   */
  function checkText(tool: string, plan: ToolPlan, text: string): CheckOutcome {
    if (plan.simpleKeys !== undefined) {
      const quick = quickText(tool, plan, text);
      if (quick !== undefined) return quick;
    }
    const values = plan.json.read(text);
    if (values === undefined) return unreadable(tool, plan, text);
    let findings: Finding[] | undefined;
    let run: Actions | undefined;
    plan.arguments.forEach((arg, i) => {
      for (const found of values[i] as (typeof values)[number]) {
        const finding = judge(arg, found.value);
        (findings ??= []).push(finding);
        if (acting && finding.status === 'checked' && !finding.inSet) {
          act((run ??= {}), arg, finding, found.location, found);
        }
      }
    });
    return conclude(tool, text, findings, run, (rewrites) => spliceRewrites(text, rewrites));
  }

  return {
    mode,
    setNames,
    check(tool, args) {
      try {
        const plan = plans.get(tool);
        if (plan !== undefined) {
          if (typeof args === 'string') return checkText(tool, plan, args);
          if (typeof args === 'object' && args !== null) return checkObject(tool, plan, args);
        }
      } catch {
        // A hostile argument (a throwing getter, a Proxy) must not fail the call.
      }
      return { tool, action: 'call', args, findings: NO_FINDINGS };
    },
  };
}

type CheckedFinding = Extract<Finding, { status: 'checked' }>;

/**
 * A checked tool whose JSON-text arguments cannot be read is not silent: each
 * of its configured arguments is reported unavailable, and the call goes out
 * untouched (fail open, in every mode).
 */
function unreadable(tool: string, plan: ToolPlan, text: string): CheckOutcome {
  return {
    tool,
    action: 'call',
    args: text,
    findings: plan.arguments.map((arg) => ({
      argument: arg.path.text,
      set: arg.setName,
      value: undefined,
      status: 'unavailable',
      reason: 'unreadable',
    })),
  };
}

// Plain literals, not spreads of a shared base (docs/decisions/0022-in-set-check-allocations.md).
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

/** `repairDisclosure`, validated: a lookup by set name (`'list'` for a set not named). */
function disclosureOption(
  given: unknown,
  provider: ValueSetProvider,
): (setName: string) => RepairDisclosure {
  if (given === undefined) return () => 'list';
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      `repairDisclosure must be an object of set name to ${REPAIR_DISCLOSURES.join(', ')}.`,
    );
  }
  const known = new Set(provider.names());
  const bySet = new Map<string, RepairDisclosure>();
  for (const [name, value] of Object.entries(given)) {
    if (!(REPAIR_DISCLOSURES as readonly unknown[]).includes(value)) {
      throw new ArgcheckConfigError(
        ErrorCode.INVALID_OPTION,
        `repairDisclosure[${JSON.stringify(name)}] must be one of ${REPAIR_DISCLOSURES.join(', ')}, got ${JSON.stringify(value)}.`,
      );
    }
    if (!known.has(name)) {
      throw new ArgcheckConfigError(
        ErrorCode.UNKNOWN_SET,
        `repairDisclosure names ${JSON.stringify(name)}, which no value-set source provides.`,
      );
    }
    bySet.set(name, value as RepairDisclosure);
  }
  return (setName) => bySet.get(setName) ?? 'list';
}
