/**
 * U+0000 and other hostile strings in every string field of every operation (issue 24): the
 * probe's PostgreSQL 500 (`invalid byte sequence for encoding "UTF8": 0x00`) through any string
 * that reached the database, and SQLite's FTS5 500 through the admin search. Each operation of the
 * API document is sent its valid request with one string field replaced, as an admin (and, under
 * /api/ingest, as the AI service): the answer is a 4xx `{ error, message }` or a success, never
 * a 5xx, on both databases.
 */
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from './adminFlow';
import { databases, useTestServer } from './harness';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
}
interface Operation {
  responses?: Record<string, unknown>;
  parameters?: { in: string; name: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const SERVICE_TOKEN = 'control-characters-service-token-0123456789';

/** The hostile strings: NUL alone and inside a valid value, other C0 controls, DEL, a lone surrogate. */
const HOSTILE = (valid: string) => ['\u0000', `${valid}\u0000`, `${valid}\u0001\u001f`, `${valid}\u007f`, `${valid}\ud800`];

function firstOf(schema: Schema): Schema {
  return schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
}

/** A value the schema accepts. */
function validValue(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const s = firstOf(schema);
  if (s !== schema) return validValue(s);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'string') {
    if (s.format === 'email') return 'fuzz@example.com';
    if (s.format === 'uri') return 'https://example.com/';
    if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
    return 'fuzz'.padEnd(s.minLength ?? 1, 'z');
  }
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return s.items ? [validValue(s.items)] : [];
  if (type === 'object') return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, validValue(v)]));
  return { fuzz: 'any' };
}

type Path = (string | number)[];

/** Percent-encoded; a lone surrogate as the bytes a careless client would send (ill-formed UTF-8). */
const encode = (value: string) => value.split('\ud800').map(encodeURIComponent).join('%ED%A0%80');

/** Every place in a body where a string can stand: string fields, and any-JSON fields (a string inside). */
function stringPlaces(schema: Schema, at: Path = []): Path[] {
  const s = firstOf(schema);
  if (s.const !== undefined || s.enum) return [];
  const type = Array.isArray(s.type) ? s.type : s.type ? [s.type] : undefined;
  if (!type) return [[...at, 'fuzz']]; // any JSON value: an object with a string in it
  if (type.includes('string')) return [at];
  if (type.includes('object')) return Object.entries(s.properties ?? {}).flatMap(([k, v]) => stringPlaces(v, [...at, k]));
  if (type.includes('array') && s.items) return stringPlaces(s.items, [...at, 0]);
  return [];
}

function withValue(base: unknown, at: Path, value: string): unknown {
  if (at.length === 0) return value;
  const [head, ...rest] = at as [string | number, ...Path];
  const container = (base && typeof base === 'object' ? structuredClone(base) : typeof head === 'number' ? [] : {}) as Record<
    string | number,
    unknown
  >;
  container[head] = withValue(container[head], rest, value);
  return container;
}

describe.each(databases)('hostile strings on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN });

  it('never answer 5xx, in any string field of any operation', async () => {
    const admin = await signedInAdmin(server());
    const doc = (await admin.client.get('/api/openapi.json')).json<{ paths: Record<string, Record<string, Operation>> }>();
    const failures: string[] = [];
    let sent = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        // Signing out would end the session the other requests use.
        if (route === '/api/logout') continue;
        const params = op.parameters ?? [];
        const pathValues = Object.fromEntries(
          params.filter((p) => p.in === 'path').map((p) => [p.name, String(validValue(p.schema ?? {}))]),
        );
        const queryValues = Object.fromEntries(
          params.filter((p) => p.in === 'query').map((p) => [p.name, String(validValue(p.schema ?? {}))]),
        );
        const bodySchema = op.requestBody?.content?.['application/json']?.schema;
        const body = bodySchema ? validValue(bodySchema) : undefined;
        const headers: Record<string, string> = route.startsWith('/api/ingest') ? { authorization: `Bearer ${SERVICE_TOKEN}` } : {};

        const send = async (what: string, path: Record<string, string>, query: Record<string, string>, json: unknown) => {
          const url = route.replace(/\{(\w+)\}/g, (_, name: string) => encode(path[name] ?? 'x'));
          const search = Object.entries(query)
            .map(([k, v]) => `${k}=${encode(v)}`)
            .join('&');
          const response = await admin.client.request(method.toUpperCase() as 'POST', `${url}${search ? `?${search}` : ''}`, {
            ...(json === undefined ? {} : { json }),
            headers,
          });
          sent += 1;
          const documented503 = response.statusCode === 503 && op.responses?.['503'] !== undefined;
          // U+0000 is refused wherever it stands: an error or a failure page, never a success.
          if (what.includes('\\u0000') && response.statusCode < 300)
            failures.push(`${method.toUpperCase()} ${route} ${what}: accepted with ${response.statusCode}`);
          if (response.statusCode >= 500 && !documented503)
            failures.push(`${method.toUpperCase()} ${route} ${what}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          else if (response.statusCode >= 400 && response.headers['content-type']?.toString().includes('json')) {
            const answer = response.json<Record<string, unknown>>();
            if (typeof answer.error !== 'string' || typeof answer.message !== 'string')
              failures.push(`${method.toUpperCase()} ${route} ${what}: ${response.statusCode} without { error, message }`);
          }
        };

        for (const name of Object.keys(pathValues))
          for (const value of HOSTILE(pathValues[name] ?? 'x'))
            await send(`path ${name}=${JSON.stringify(value)}`, { ...pathValues, [name]: value }, queryValues, body);
        for (const name of Object.keys(queryValues))
          for (const value of HOSTILE(queryValues[name] ?? 'x'))
            await send(`query ${name}=${JSON.stringify(value)}`, pathValues, { ...queryValues, [name]: value }, body);
        if (bodySchema)
          for (const at of stringPlaces(bodySchema))
            for (const value of HOSTILE('fuzz@example.com'))
              await send(`body ${at.join('.')}=${JSON.stringify(value)}`, pathValues, queryValues, withValue(body, at, value));
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  });
});
