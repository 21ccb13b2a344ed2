import type { FastifySerializerCompiler } from 'fastify/types/schema';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * zod writes a nullable value as `anyOf: [X, {type: null}]`; fast-json-stringify serializes an
 * anyOf by validating the value against each branch at run time. As `type: [X, null]` it is a
 * plain branch on null, written out in the compiled code.
 */
function withNullableTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNullableTypes);
  if (node === null || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withNullableTypes(value)])) as JsonSchema;
  const branches = schema.anyOf;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullIndex = branches.findIndex((b: JsonSchema) => b.type === 'null' && Object.keys(b).length === 1);
    const other = branches[1 - nullIndex] as JsonSchema | undefined;
    if (nullIndex !== -1 && other && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = schema;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return schema;
}

/** The JSON Schema of what a zod schema outputs, in the shape fast-json-stringify compiles best. */
export function responseJsonSchema(schema: z.ZodType): Schema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, ...rest } = withNullableTypes(json) as JsonSchema;
  return rest as unknown as Schema;
}

/**
 * Responses are written by code compiled once per route from the route's zod schema (its JSON
 * Schema), as Fastify does by default, instead of re-validating every answer with zod and then
 * calling JSON.stringify: issue 12's profile of the hottest route. The zod schemas stay the
 * contract: only the properties they name are written (an unlisted one, such as a password hash
 * on a row, never leaves), a missing required one fails the request, and the contract tests parse
 * every answer with them.
 */
const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();

/**
 * Compiled once per schema in a process: the code is pure, so every app built from the same route
 * modules shares it. A production process builds one app; the server tests build one per test, and
 * compiling every route's answer each time was the largest part of building one (a profile of
 * issue 40's suite: 1.9 of 8.5 s of fifteen builds).
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = fastJsonStringify(responseJsonSchema(schema));
    compiled.set(schema, serialize);
  }
  return serialize;
};
