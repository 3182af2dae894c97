/** The sampled log record's event name (DESIGN: telemetry). */
export const CHECK_EVENT_NAME = 'tool_argument_value_check';

/** The attributes of one sampled check, as the report needs them. */
export interface CheckRecord {
  tool: string;
  argument: string;
  set: string;
  /** Undefined when the record carries no usable `in_set` (the check could not run). */
  inSet: boolean | undefined;
  inSetNormalised: boolean | undefined;
  shape: string | undefined;
  /** Undefined when value capture was off. */
  value: string | undefined;
}

/** Attribute values arrive as strings (`"false"`), or as booleans from hand-written files. */
function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Builds a record from flat attributes, or returns undefined when they do not
 * describe a check (no `tool` or `argument`).
 */
export function toCheckRecord(
  attributes: Readonly<Record<string, unknown>>,
): CheckRecord | undefined {
  const { tool, argument } = attributes;
  if (typeof tool !== 'string' || typeof argument !== 'string') return undefined;
  const shape = text(attributes['shape']);
  return {
    tool,
    argument,
    set: text(attributes['set']) ?? '',
    inSet: flag(attributes['in_set']),
    inSetNormalised: flag(attributes['in_set_normalised']),
    shape: shape === '' ? undefined : shape,
    value: text(attributes['value']),
  };
}
