import {
  CHECK_EVENT_NAME,
  DEFINITION_EVENT_NAME,
  toCheckRecord,
  toDefinitionRecord,
  type CheckRecord,
  type DefinitionRecord,
} from './check-record.js';
import { jsonCost } from './json-depth.js';

/**
 * Objects and arrays one line may nest. A collector line reaches 9 levels for
 * a string attribute and 3 more per nested kvlist; far deeper lines are not
 * log records, and parsing them costs memory out of all proportion to their size.
 */
export const MAX_LINE_NESTING = 64;

/**
 * Bytes of line per object or array it may open. A collector line opens one
 * for every 18 to 30 bytes (two per attribute); a line that opens more is no
 * export of log records, and JSON.parse would take tens of bytes of memory
 * for each of its containers. Below `FREE_CONTAINERS` a line is never
 * refused for this.
 */
export const BYTES_PER_CONTAINER = 12;
export const FREE_CONTAINERS = 4_096;

/** What one input line held. */
export type ParsedLine =
  | {
      kind: 'records';
      records: CheckRecord[];
      ignored: number;
      /** `tool_argument_tool_definition` records: which text a hash stands for. */
      definitions?: DefinitionRecord[];
    }
  | { kind: 'corrupt'; reason: string };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An OTLP `AnyValue` as a plain JSON value (`intValue` arrives as a string in OTLP JSON). */
function anyValue(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  if ('stringValue' in value) return value['stringValue'];
  if ('boolValue' in value) return value['boolValue'];
  if ('intValue' in value) return String(value['intValue']);
  if ('doubleValue' in value) return String(value['doubleValue']);
  if (isObject(value['arrayValue'])) {
    const values = value['arrayValue']['values'];
    return Array.isArray(values) ? values.map(anyValue) : [];
  }
  if (isObject(value['kvlistValue'])) return otlpAttributes(value['kvlistValue']['values']);
  if ('bytesValue' in value) return value['bytesValue'];
  return undefined;
}

function otlpAttributes(list: unknown): Json {
  const out: Json = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (isObject(kv) && typeof kv['key'] === 'string') out[kv['key']] = anyValue(kv['value']);
  }
  return out;
}

function arrayField(parent: Json, key: string, where: string): unknown[] {
  const value = parent[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where}.${key} is not an array`);
  return value;
}

/** One line of the collector file exporter: an ExportLogsServiceRequest. */
function parseOtlp(request: Json): ParsedLine {
  const records: CheckRecord[] = [];
  const definitions: DefinitionRecord[] = [];
  let ignored = 0;
  for (const resourceLogs of arrayField(request, 'resourceLogs', 'line')) {
    if (!isObject(resourceLogs)) throw new Error('resourceLogs entry is not an object');
    for (const scopeLogs of arrayField(resourceLogs, 'scopeLogs', 'resourceLogs')) {
      if (!isObject(scopeLogs)) throw new Error('scopeLogs entry is not an object');
      for (const logRecord of arrayField(scopeLogs, 'logRecords', 'scopeLogs')) {
        if (!isObject(logRecord)) throw new Error('logRecords entry is not an object');
        const attributes = otlpAttributes(logRecord['attributes']);
        // Older SDKs carry the event name as an attribute instead of the field.
        const eventName = logRecord['eventName'] ?? attributes['event.name'];
        const record = eventName === CHECK_EVENT_NAME ? toCheckRecord(attributes) : undefined;
        const definition =
          eventName === DEFINITION_EVENT_NAME ? toDefinitionRecord(attributes) : undefined;
        if (record) records.push(record);
        else if (definition) definitions.push(definition);
        else ignored += 1;
      }
    }
  }
  return definitions.length === 0
    ? { kind: 'records', records, ignored }
    : { kind: 'records', records, ignored, definitions };
}

/** A plain JSON record: the attributes themselves, or under `attributes`. */
function parsePlain(line: Json): ParsedLine {
  const attributes = isObject(line['attributes']) ? line['attributes'] : line;
  const eventName =
    line['eventName'] ?? line['event_name'] ?? line['event.name'] ?? attributes['event.name'];
  if (eventName === DEFINITION_EVENT_NAME) {
    const definition = toDefinitionRecord(attributes);
    if (definition) return { kind: 'records', records: [], ignored: 0, definitions: [definition] };
  }
  const record =
    eventName === undefined || eventName === CHECK_EVENT_NAME
      ? toCheckRecord(attributes)
      : undefined;
  // Without an event name, only a record carrying the contract's check attributes counts.
  if (record && (eventName !== undefined || record.inSet !== undefined)) {
    return { kind: 'records', records: [record], ignored: 0 };
  }
  return { kind: 'records', records: [], ignored: 1 };
}

/** Parses one non-blank input line; never throws. */
export function parseLine(line: string): ParsedLine {
  const maxContainers = Math.max(FREE_CONTAINERS, line.length / BYTES_PER_CONTAINER);
  const cost = jsonCost(line, MAX_LINE_NESTING, maxContainers);
  if (cost === 'too_deep') {
    return { kind: 'corrupt', reason: `nested deeper than ${MAX_LINE_NESTING} levels` };
  }
  if (cost === 'too_many_containers') {
    return {
      kind: 'corrupt',
      reason: `more than one object or array per ${BYTES_PER_CONTAINER} characters (not parsed)`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    return { kind: 'corrupt', reason: `not JSON (${(err as Error).message})` };
  }
  if (!isObject(json)) return { kind: 'corrupt', reason: 'not a JSON object' };
  try {
    return 'resourceLogs' in json ? parseOtlp(json) : parsePlain(json);
  } catch (err) {
    return { kind: 'corrupt', reason: `not an OTLP logs request (${(err as Error).message})` };
  }
}
