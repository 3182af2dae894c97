import { ArgcheckConfigError, ErrorCode, REPAIR_DISCLOSURES } from '@argcheck/core';
import type {
  CheckContext,
  CheckedArguments,
  CheckMode,
  Clock,
  RepairDisclosure,
  ValueSetSource,
} from '@argcheck/core';
import type { RedactValue, ToolArgumentInstrumentationConfig } from '../types.js';

/**
 * The environment variable that turns value capture off; it cannot turn it on.
 * Unset, empty, `true`, `1`, `yes` or `on` (any case) leave the configuration
 * in charge; any other setting (`false`, `0`, `off`, `no`, a typo) turns
 * capture off: a kill switch fails closed.
 */
export const CAPTURE_VALUES_ENV = 'ARGCHECK_CAPTURE_VALUES';

const CAPTURE_ALLOWED: ReadonlySet<string> = new Set(['', 'true', '1', 'yes', 'on']);

/** Configuration after validation, with defaults applied. */
export interface ResolvedConfig {
  valueSets: Readonly<Record<string, ValueSetSource>>;
  checkedArguments: CheckedArguments;
  mode: CheckMode;
  /**
   * `repairDisclosure` split by whose sets it names: the configured sets'
   * (validated by the core's checker) and derived ones (a name with a `:`,
   * applied to each catalog's checker where it names one of its sets).
   */
  repairDisclosure: {
    configured: Readonly<Record<string, RepairDisclosure>>;
    derived: Readonly<Record<string, RepairDisclosure>>;
  };
  /** Passed to the core provider as given; it validates them. */
  ttlMs: number | undefined;
  fetchTimeoutMs: number | undefined;
  maxStaleMs: number | undefined;
  refreshJitter: number | undefined;
  logSampleRatio: number;
  captureValues: boolean;
  maxValueLength: number;
  redactValue: RedactValue | undefined;
  conversationId: ((ctx: CheckContext) => string | undefined) | undefined;
  random: () => number;
  clock: Clock | undefined;
  spanOutcome: boolean;
  attribution: {
    enabled: boolean;
    maxValues: number;
    model: string | undefined;
    provider: string | undefined;
    agent: string | undefined;
    /** A fixed value, a function, or `undefined` for the baggage entry. */
    promptVersion: string | (() => string | undefined) | undefined;
    toolDefinition: boolean;
  };
  repairWindowMs: number;
  mcp: { enabled: boolean; deriveValueSets: boolean; maxCheckedArguments: number };
  frameworks: { enabled: boolean; deriveValueSets: boolean };
}

function invalid(message: string): never {
  throw new ArgcheckConfigError(ErrorCode.INVALID_OPTION, message);
}

function optionalFunction<T>(name: string, value: T | undefined): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    invalid(`${name} must be a function, got ${typeof value}.`);
  }
  return value;
}

function optionalBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean')
    invalid(`${name} must be true or false, got ${JSON.stringify(value)}.`);
  return value;
}

function integer(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    invalid(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function optionalText(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) {
    invalid(`${name} must be a non-empty string, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function resolveAttribution(
  option: ToolArgumentInstrumentationConfig['attribution'],
): ResolvedConfig['attribution'] {
  if (option !== undefined && option !== false && (typeof option !== 'object' || option === null)) {
    invalid(`attribution must be an object or false, got ${JSON.stringify(option)}.`);
  }
  const given = option === false ? { enabled: false } : (option ?? {});
  const promptVersion = given.promptVersion;
  if (
    promptVersion !== undefined &&
    typeof promptVersion !== 'function' &&
    (typeof promptVersion !== 'string' || promptVersion.length === 0)
  ) {
    invalid(
      `attribution.promptVersion must be a non-empty string or a function, got ${JSON.stringify(promptVersion)}.`,
    );
  }
  return {
    enabled: optionalBoolean('attribution.enabled', given.enabled, true),
    maxValues: integer('attribution.maxValues', given.maxValues, 10, 1),
    model: optionalText('attribution.model', given.model),
    provider: optionalText('attribution.provider', given.provider),
    agent: optionalText('attribution.agent', given.agent),
    promptVersion,
    toolDefinition: optionalBoolean('attribution.toolDefinition', given.toolDefinition, true),
  };
}

function ratio(value: unknown): number {
  if (value === undefined) return 1 / 50;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    invalid(
      `logSampleRatio must be a number in [0, 1] (0 turns log records off), got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function envAllowsCapture(env: NodeJS.ProcessEnv): boolean {
  const setting = env[CAPTURE_VALUES_ENV];
  return setting === undefined || CAPTURE_ALLOWED.has(setting.trim().toLowerCase());
}

function splitDisclosure(
  given: unknown,
  valueSets: Readonly<Record<string, unknown>>,
): ResolvedConfig['repairDisclosure'] {
  const configured = Object.create(null) as Record<string, RepairDisclosure>;
  const derived = Object.create(null) as Record<string, RepairDisclosure>;
  if (given === undefined) return { configured, derived };
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    invalid(`repairDisclosure must be an object of set name to ${REPAIR_DISCLOSURES.join(', ')}.`);
  }
  for (const [name, value] of Object.entries(given)) {
    if (Object.hasOwn(valueSets, name)) configured[name] = value as RepairDisclosure;
    else if (name.includes(':')) {
      if (!(REPAIR_DISCLOSURES as readonly unknown[]).includes(value)) {
        invalid(
          `repairDisclosure[${JSON.stringify(name)}] must be one of ${REPAIR_DISCLOSURES.join(', ')}, got ${JSON.stringify(value)}.`,
        );
      }
      derived[name] = value as RepairDisclosure;
    } else {
      throw new ArgcheckConfigError(
        ErrorCode.UNKNOWN_SET,
        `repairDisclosure names ${JSON.stringify(name)}, which is neither a configured value set nor a derived one (<origin>:<scope>/<tool>.<argument>).`,
      );
    }
  }
  return { configured, derived };
}

/** Validate the user's configuration; throws `ArgcheckConfigError` with a stable code. */
export function resolveConfig(
  config: ToolArgumentInstrumentationConfig,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const mcp = config.mcp ?? {};
  const frameworks = config.frameworks ?? {};
  return {
    valueSets: config.valueSets ?? {},
    checkedArguments: config.checkedArguments ?? {},
    mode: config.mode ?? 'observe',
    repairDisclosure: splitDisclosure(config.repairDisclosure, config.valueSets ?? {}),
    ttlMs: config.ttlMs,
    fetchTimeoutMs: config.fetchTimeoutMs,
    maxStaleMs: config.maxStaleMs,
    refreshJitter: config.refreshJitter,
    logSampleRatio: ratio(config.logSampleRatio),
    captureValues:
      optionalBoolean('captureValues', config.captureValues, true) && envAllowsCapture(env),
    maxValueLength: integer('maxValueLength', config.maxValueLength, 256, 1),
    redactValue: optionalFunction('redactValue', config.redactValue),
    conversationId: optionalFunction('conversationId', config.conversationId),
    random: optionalFunction('random', config.random) ?? Math.random,
    clock: config.clock,
    spanOutcome: optionalBoolean('spanOutcome', config.spanOutcome, false),
    attribution: resolveAttribution(config.attribution),
    repairWindowMs: integer('repairWindowMs', config.repairWindowMs, 300_000, 1),
    mcp: {
      enabled: optionalBoolean('mcp.enabled', mcp.enabled, true),
      deriveValueSets: optionalBoolean('mcp.deriveValueSets', mcp.deriveValueSets, true),
      maxCheckedArguments: integer('mcp.maxCheckedArguments', mcp.maxCheckedArguments, 500, 0),
    },
    frameworks: {
      enabled: optionalBoolean('frameworks.enabled', frameworks.enabled, true),
      deriveValueSets: optionalBoolean(
        'frameworks.deriveValueSets',
        frameworks.deriveValueSets,
        true,
      ),
    },
  };
}
