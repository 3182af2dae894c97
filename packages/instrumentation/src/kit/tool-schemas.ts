/**
 * A framework tool's input schema as JSON Schema, for the enums it derives
 * value sets from. The AI SDK's tools and Mastra's converted tools carry one
 * of the same few kinds.
 */
import { isObject } from './values.js';

/** The AI SDK's mark of its `Schema` objects (`jsonSchema()`, `zodSchema()`, `asSchema()`). */
export const AI_SDK_SCHEMA = Symbol.for('vercel.ai.schema');

/** An AI SDK `Schema`. */
export interface Schema {
  jsonSchema: unknown;
  validate?: (value: unknown) => unknown;
}

/** The AI SDK's `asSchema`: any schema it accepts, as a `Schema`. */
export type AsSchema = (schema: unknown) => Schema;

/**
 * JSON Schema from what a tool's `inputSchema` may be: an AI SDK `Schema`
 * (its `jsonSchema`), a Standard JSON Schema (zod 4 and others:
 * `~standard.jsonSchema.input`, as the SDK's own `standardSchema` reads it),
 * or, through the SDK's `asSchema`, anything else it accepts.
 */
export function jsonSchemaOf(schema: unknown, asSchema: AsSchema | undefined): unknown {
  if (isObject(schema) && schema[AI_SDK_SCHEMA] === true) return schema.jsonSchema;
  const standard = isObject(schema) ? schema['~standard'] : undefined;
  const converter = isObject(standard) ? standard.jsonSchema : undefined;
  if (isObject(converter) && typeof converter.input === 'function') {
    return (converter.input as (options: object) => unknown)({ target: 'draft-07' });
  }
  if (asSchema !== undefined && schema != null) return asSchema(schema).jsonSchema;
  return undefined;
}
