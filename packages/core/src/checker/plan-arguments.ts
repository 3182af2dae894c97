import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { ArgumentCheckerOptions } from '../types.js';
import { compileArgumentPath } from './argument-path.js';
import type { ArgumentPath } from './argument-path.js';
import { createJsonArgumentsReader } from './json-arguments.js';
import type { JsonArgumentsReader } from './json-arguments.js';
import { ABSENT } from './flat-json.js';

export interface PlannedArgument {
  path: ArgumentPath;
  setName: string;
  /** `reason_code`-style paths read one own property, with no allocation. */
  simpleKey: string | undefined;
}

/** What a tool's check reads. */
export interface ToolPlan {
  readonly arguments: readonly PlannedArgument[];
  /** Reads the arguments, in the same order, out of JSON-text arguments. */
  readonly json: JsonArgumentsReader;
  /**
   * `reason_code` for each argument, when every argument is a simple key:
   * flat JSON texts that name each at most once take the quick read
   * (`flat-json.ts`).
   */
  readonly simpleKeys: readonly string[] | undefined;
  /** Where the quick read puts the values it finds, one per argument (a check is synchronous). */
  readonly scratch: (string | typeof ABSENT)[];
}

export function integerOption(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      `${name} must be an integer >= ${min}, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** Compile `checkedArguments`; throws on a bad path or a set no source provides. */
export function planArguments(options: ArgumentCheckerOptions): Map<string, ToolPlan> {
  const { checkedArguments, valueSets } = options;
  if (typeof checkedArguments !== 'object' || checkedArguments === null) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      'checkedArguments must be an object: { [tool]: { [argumentPath]: setName } }.',
    );
  }
  const known = new Set(valueSets.names());
  const plans = new Map<string, ToolPlan>();
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
    const json = createJsonArgumentsReader(planned.map((a) => a.path));
    const simple = planned.every((a) => a.simpleKey !== undefined);
    const simpleKeys = simple ? planned.map((a) => a.simpleKey as string) : undefined;
    const scratch = planned.map((): string | typeof ABSENT => ABSENT);
    plans.set(tool, { arguments: planned, json, simpleKeys, scratch });
  }
  return plans;
}
