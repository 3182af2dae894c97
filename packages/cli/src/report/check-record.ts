import {
  ATTR_ARGUMENT,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_SET,
  ATTR_SHAPE,
  ATTR_TOOL,
  ATTR_TOOL_DEFINITION,
  ATTR_TOOL_DESCRIPTION,
  ATTR_VALUE,
  ATTRIBUTION_ATTRIBUTES,
  EVENT_TOOL_ARGUMENT_TOOL_DEFINITION,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '@argcheck/instrumentation/semconv';

/** The sampled log record's event name. */
export const CHECK_EVENT_NAME = EVENT_TOOL_ARGUMENT_VALUE_CHECK;
/** The event name of the record that says which text a `tool_definition` value stands for. */
export const DEFINITION_EVENT_NAME = EVENT_TOOL_ARGUMENT_TOOL_DEFINITION;

/** Which description a `tool_definition` value stands for (from its record). */
export interface DefinitionRecord {
  tool: string;
  toolDefinition: string;
  description: string;
}

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
  /** The attribution attributes the record carries (`gen_ai.request.model`, …), by key. */
  attribution?: Readonly<Record<string, string>>;
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
  const tool = attributes[ATTR_TOOL];
  const argument = attributes[ATTR_ARGUMENT];
  if (typeof tool !== 'string' || typeof argument !== 'string') return undefined;
  const shape = text(attributes[ATTR_SHAPE]);
  const attribution: Record<string, string> = {};
  for (const key of ATTRIBUTION_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value === 'string' && value !== '') attribution[key] = value;
  }
  return {
    tool,
    argument,
    set: text(attributes[ATTR_SET]) ?? '',
    inSet: flag(attributes[ATTR_IN_SET]),
    inSetNormalised: flag(attributes[ATTR_IN_SET_NORMALISED]),
    shape: shape === '' ? undefined : shape,
    value: text(attributes[ATTR_VALUE]),
    ...(Object.keys(attribution).length > 0 ? { attribution } : {}),
  };
}

/** A definition record from its attributes, or undefined when they do not describe one. */
export function toDefinitionRecord(
  attributes: Readonly<Record<string, unknown>>,
): DefinitionRecord | undefined {
  const tool = attributes[ATTR_TOOL];
  const toolDefinition = attributes[ATTR_TOOL_DEFINITION];
  if (typeof tool !== 'string' || typeof toolDefinition !== 'string') return undefined;
  return { tool, toolDefinition, description: text(attributes[ATTR_TOOL_DESCRIPTION]) ?? '' };
}
