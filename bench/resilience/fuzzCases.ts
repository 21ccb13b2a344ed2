// The fuzzer's malformed requests (bench/resilience/fuzz.ts), made by fast-check from one seed:
// wrong methods, wrong JSON types per body field, broken JSON, bodies over the 64 KiB limit, odd
// content types and encodings, hostile query strings and odd path parameters.
import fc from 'fast-check';

/** The parts of a JSON Schema (as the OpenAPI document writes them) the fuzzer reads. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
}

export interface Endpoint {
  method: string;
  /** With `{name}` for path parameters, as OpenAPI writes them. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** The parameters' schemas and which are required, where the document gives them. */
  paramSchemas?: Record<string, Schema>;
  requiredParams?: string[];
  body?: Schema;
  /** Who gets furthest into the operation (its documented security): the hostile values' deterministic pass sends as them. */
  reach?: Identity;
  /** The route documents a 503 (billing off): the one 5xx that is an answer, not a failure. */
  documented503: boolean;
}

/** `service`: no cookie, the AI service's bearer token. */
export type Identity = 'anonymous' | 'user' | 'admin' | 'service';

export type Kind =
  | 'wrong-type'
  | 'broken-json'
  | 'huge-body'
  | 'content-type'
  | 'wrong-method'
  | 'hostile-query'
  | 'odd-path'
  | 'hostile-field'
  | 'deep-nesting';

/** A body too large to keep 10,000 of in memory: made when sent. */
export interface BigBody {
  bytes: number;
}

export interface FuzzCase {
  endpoint: string;
  kind: Kind;
  identity: Identity;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | BigBody;
  /** For hostile-field and deep-nesting cases: which field, and what kind of value it carried. */
  field?: string;
  value?: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECTX', 'get'];

const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/** The JSON types a schema accepts (all of them when it says nothing). */
export function typesOf(schema: Schema): Set<string> {
  const of = schema.anyOf ?? schema.oneOf;
  if (of) return new Set(of.flatMap((s) => [...typesOf(s)]));
  if (schema.type === undefined) return new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.has('number')) types.add('integer');
  return types;
}

/** A value the schema accepts, so that one broken field is the only fault of a body. */
export function validValue(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const first = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (first) return validValue(first);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1)).toISOString();
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri') return 'https://example.com/';
      return 'fuzz'.padEnd(schema.minLength ?? 1, 'z');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, validValue(s)]));
    default:
      return { fuzz: 1 };
  }
}

const CANDIDATES: unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -0.000001,
  true,
  false,
  null,
  '',
  'x',
  ' ',
  '\u0000',
  '💥\u202e',
  '1',
  'true',
  'null',
  [],
  [1],
  ['a'],
  [null],
  {},
  { a: 1 },
  { $gt: '' },
  [[[[[]]]]],
];

/** Values of another JSON type than the schema's, and values of its type that break its bounds. */
function wrongValues(schema: Schema): unknown[] {
  const types = typesOf(schema);
  const wrong = CANDIDATES.filter((v) => !types.has(jsonType(v)) && !(jsonType(v) === 'integer' && types.has('number')));
  if (types.size === 6) wrong.push(null); // "any JSON value": null is the one it refuses
  if (types.has('string')) {
    if (schema.maxLength !== undefined) wrong.push('y'.repeat(schema.maxLength + 1));
    if ((schema.minLength ?? 0) > 1) wrong.push('y'.repeat(schema.minLength! - 1));
    if (schema.enum) wrong.push('NOT_ONE_OF_THEM');
    if (schema.format === 'date-time') wrong.push('2026-13-45T25:61:61Z', 'yesterday');
  }
  if (types.has('integer') || types.has('number')) {
    if (schema.minimum !== undefined) wrong.push(schema.minimum - 1);
    if (schema.maximum !== undefined) wrong.push(schema.maximum + 1);
  }
  return wrong.length > 0 ? wrong : [null];
}

/** A body that is the schema's valid body with exactly one thing wrong (or the whole of it wrong). */
function wrongTypeBody(schema: Schema | undefined): fc.Arbitrary<string> {
  const base = (schema ? validValue(schema) : { fuzz: 1 }) as Record<string, unknown>;
  const fields = Object.keys(schema?.properties ?? {});
  const root = fc.constantFrom('[]', '"text"', '0', 'null', 'true', '[{}]', '1e999');
  const raw = fc.constantFrom(
    // Parsed as JSON these are overflows and prototype keys, which JSON.stringify cannot write.
    JSON.stringify(base).replace(/}$/, `${fields.length ? ',' : ''}"__proto__":{"isAdmin":true}}`),
    JSON.stringify(base).replace(/}$/, `${fields.length ? ',' : ''}"constructor":{"prototype":{"isAdmin":true}}}`),
    JSON.stringify(base).replace(/^\{/, '{"n":1e999,'),
  );
  if (fields.length === 0 || !schema?.properties) return fc.oneof(root, raw);
  const field = fc
    .constantFrom(...fields)
    .chain((name) =>
      fc.constantFrom(...wrongValues(schema.properties?.[name] ?? {})).map((value) => JSON.stringify({ ...base, [name]: value })),
    );
  return fc.oneof({ arbitrary: field, weight: 6 }, { arbitrary: root, weight: 1 }, { arbitrary: raw, weight: 1 });
}

const BROKEN_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}}',
  '[1,2',
  'nul',
  'tru',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '"\\ud800"',
  '{"a":"\\u0000"}',
  '{"a":"\\x41"}',
  '{a:1}',
  '{"a":1 "b":2}',
  '\ufeff{"a":1}',
  '{"a":1}garbage',
  '{"a":01}',
  '{"a":1,"a":2,"a":3}',
  '{"email":"a@b.c"}\n{"email":"d@e.f"}',
  '/* comment */{}',
  '{"a":"\u0007\u001b"}',
  '',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
];

const brokenJson = fc.oneof(
  { arbitrary: fc.constantFrom(...BROKEN_JSON), weight: 4 },
  { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')), weight: 1 },
);

/** Over the app's 64 KiB limit, mostly under nginx's 1 MiB (which answers 413 itself). */
const hugeBody: fc.Arbitrary<BigBody> = fc.oneof(
  { arbitrary: fc.integer({ min: 64 * 1024 + 1, max: 400 * 1024 }).map((bytes) => ({ bytes })), weight: 8 },
  { arbitrary: fc.integer({ min: 1024 * 1024 + 1, max: 1300 * 1024 }).map((bytes) => ({ bytes })), weight: 1 },
);

/** A content type / encoding pair and a body to go with it. */
const contentTypes = (jsonBody: string): fc.Arbitrary<{ headers: Record<string, string>; body: string }> =>
  fc.oneof(
    fc
      .constantFrom(
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'multipart/form-data',
        'application/xml',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json; charset=nonsense',
        'application/json;;;',
        'application/json; charset="',
        'APPLICATION/JSON',
        ' application/json ',
        'application/json, text/html',
        'application/vnd.api+json',
        'application/jsonx',
        'application/*',
        '*/*',
        'json',
        '',
        'application/json\u00a0',
        'application/ld+json',
        'application/problem+json',
      )
      .map((type) => ({ headers: { 'content-type': type }, body: jsonBody })),
    fc.constantFrom('gzip', 'deflate', 'br', 'gzip, gzip', 'compress', 'identity', 'x-unknown', 'zstd').chain((encoding) =>
      fc.uint8Array({ minLength: 0, maxLength: 64 }).map((garbage) => ({
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body: encoding === 'identity' ? jsonBody : `\u001f\u008b${Buffer.from(garbage).toString('latin1')}`,
      })),
    ),
    fc
      .constantFrom(
        'email=a%40b.c&password=12345678',
        'a=1&a=2&__proto__[x]=1',
        '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--',
      )
      .map((body) => ({
        headers: { 'content-type': body.startsWith('--') ? 'multipart/form-data; boundary=xyz' : 'application/x-www-form-urlencoded' },
        body,
      })),
    fc.constant({
      headers: { 'content-type': 'application/json; charset=utf-16le' },
      body: Buffer.from(jsonBody, 'utf16le').toString('latin1'),
    }),
    fc.constant({ headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: jsonBody }),
    fc.constant({ headers: {}, body: jsonBody }),
  );

/** Percent-encoded unicode (whole graphemes: no lone surrogates, which cannot be encoded). */
const unicodeText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((s) => encodeURIComponent(s));

const hostileQueryPart = (names: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: 1000, max: 12_000 }).map((n) => `q=${'a'.repeat(n)}`),
    fc
      .tuple(fc.constantFrom(...names, 'q'), fc.integer({ min: 2, max: 300 }))
      .map(([name, times]) => Array.from({ length: times }, (_, i) => `${name}=${i}`).join('&')),
    fc.constantFrom(
      '__proto__[isAdmin]=true',
      '__proto__=1',
      'constructor[prototype][isAdmin]=1',
      '__proto__.isAdmin=1',
      'a[__proto__][b]=1',
      'constructor=1',
      'prototype=1',
      'toString=1',
      'hasOwnProperty=1',
      'valueOf=x',
      '__defineGetter__=1',
    ),
    fc.constantFrom('%', '%%', '%G1', 'q=%E0%A4', 'q=%C0%AF', 'q=%ED%A0%80', 'q=%FF%FE', 'q=%', 'q=%2', '%u0041=1', '=%', '%3D%3D=%26'),
    unicodeText.map((text) => `q=${text}`),
    unicodeText.map((text) => `${text}=1`),
    fc.constantFrom('q=%00', '%00=1', 'q=a%00b', 'q=%00%00%00', 'q=%0d%0aSet-Cookie:%20x=1', 'q=%0a'),
    fc.constantFrom('a[b][c][d][e][f][g]=1', 'a[]=1&a[]=2', 'a[999999999]=1', '&&&&', '=', '==', '?', 'a=1?b=2', ';a=1', 'a'),
    fc
      .tuple(
        fc.constantFrom(...names, 'page', 'limit'),
        fc.constantFrom('', '-1', '0', '1e999', 'NaN', 'null', '[]', '{}', 'true', '9'.repeat(400), '1.5', '0x10', ' 1'),
      )
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}`),
  );

const hostileQuery = (names: string[]) => fc.array(hostileQueryPart(names), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('&'));

const ODD_PARAMS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  'a%00b',
  '%00',
  '%ZZ',
  '%',
  'x'.repeat(5000),
  '__proto__',
  'constructor',
  'prototype',
  '-1',
  '0',
  '1e999',
  'NaN',
  'null',
  'undefined',
  '%20',
  "'%20OR%201=1--",
  '%3Cscript%3E',
  '00000000-0000-0000-0000-000000000000',
  'a;b',
  'a,b',
  '*',
  '%E2%80%AE',
  '%F0%9F%92%A5',
];

/** The path with odd values for its parameters, or an odd spelling of the path itself. */
function oddPath(endpoint: Endpoint): fc.Arbitrary<string> {
  const withParams = (value: fc.Arbitrary<string>) =>
    fc.array(value, { minLength: endpoint.pathParams.length, maxLength: endpoint.pathParams.length }).map((values) => {
      let i = 0;
      return endpoint.path.replace(/\{[^}]+\}/g, () => values[i++] ?? '');
    });
  const param = fc.oneof(fc.constantFrom(...ODD_PARAMS), unicodeText, fc.uuid());
  const spelled = withParams(fc.constant('x')).chain((path) =>
    fc.constantFrom(
      `${path}/`,
      `/${path}`,
      `${path}/.`,
      `${path}/..`,
      path.toUpperCase(),
      `${path};jsessionid=1`,
      `${path}%2F`,
      `${path}%00`,
      path.replace('/api/', '/api//'),
      path.replace('/api/', '/api/./'),
      path.replace('/api/', '/x/../api/'),
      `${path}/../../../../etc/passwd`,
      path.replace(/\//g, '%2F'),
    ),
  );
  return endpoint.pathParams.length > 0
    ? fc.oneof({ arbitrary: withParams(param), weight: 3 }, { arbitrary: spelled, weight: 1 })
    : spelled;
}

/** The path with ordinary values for its parameters. */
export const plainPath = (endpoint: Endpoint) => endpoint.path.replace(/\{[^}]+\}/g, 'fuzz-id');

/**
 * One malformed request to `endpoint` as `identity`. Requests with a body always carry a
 * wrong-typed one, so no malformation can turn into a real write (a release, a sign-out).
 */
export function fuzzCase(endpoint: Endpoint, identity: Identity, secrets: { serviceToken: string }): fc.Arbitrary<FuzzCase> {
  const label = `${endpoint.method} ${endpoint.path}`;
  const base = plainPath(endpoint);
  const sendsBody = endpoint.body !== undefined || !['GET', 'HEAD'].includes(endpoint.method);
  const extraHeaders = fc.oneof(
    { arbitrary: fc.constant<Record<string, string>>({}), weight: 6 },
    { arbitrary: fc.constant({ authorization: `Bearer ${secrets.serviceToken}` }), weight: 2 },
    {
      arbitrary: fc.constantFrom<Record<string, string>>(
        { authorization: 'Bearer x' },
        { authorization: 'Basic Og==' },
        { authorization: `Bearer ${'a'.repeat(4000)}` },
      ),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom<Record<string, string>>(
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'stripe-signature': 't=1,v1=00' },
        { cookie: 'sage_session=%ZZ; sage_sign_in=' },
        // The https name (the cluster's), broken, and beside a legacy one.
        { cookie: '__Host-sage_session=%ZZ; sage_session=x' },
      ),
      weight: 1,
    },
  );
  const kinds: Exclude<Kind, 'hostile-field' | 'deep-nesting'>[] = [
    'broken-json',
    'huge-body',
    'content-type',
    'wrong-method',
    'hostile-query',
    'odd-path',
  ];
  if (endpoint.body) kinds.push('wrong-type', 'wrong-type', 'wrong-type');
  return fc
    .record({ kind: fc.constantFrom(...kinds), extra: extraHeaders, body: wrongTypeBody(endpoint.body) })
    .chain(({ kind, extra, body }) => {
      const json = { 'content-type': 'application/json' };
      const make = (parts: Partial<FuzzCase>): FuzzCase => {
        const made: FuzzCase = {
          endpoint: label,
          kind,
          identity,
          method: endpoint.method,
          path: base,
          ...parts,
          headers: { ...(sendsBody ? json : {}), ...extra, ...parts.headers },
          ...(parts.body !== undefined ? { body: parts.body } : sendsBody ? { body } : {}),
        };
        // A HEAD request with content is not framed the same way by every hop: not a case worth having.
        if (made.method === 'HEAD') delete made.body;
        return made;
      };
      switch (kind) {
        case 'wrong-type':
          return fc.constant(make({ headers: json, body }));
        case 'broken-json':
          return brokenJson.map((broken) => make({ method: sendsBody ? endpoint.method : 'POST', headers: json, body: broken }));
        case 'huge-body':
          return hugeBody.map((big) => make({ method: sendsBody ? endpoint.method : 'POST', headers: json, body: big }));
        case 'content-type':
          return contentTypes(body).map(({ headers, body: sent }) =>
            make({ method: sendsBody ? endpoint.method : 'POST', headers, body: sent }),
          );
        case 'wrong-method':
          return fc.constantFrom(...METHODS.filter((m) => m !== endpoint.method)).map((method) => make({ method, headers: json, body }));
        case 'hostile-query':
          return hostileQuery(endpoint.queryParams).map((query) => make({ path: `${base}?${query}` }));
        case 'odd-path':
          return oddPath(endpoint).map((path) => make({ path }));
      }
    });
}
