// The fuzzer's hostile values (issue 24): requests that are valid (validValue) but for one field,
// which carries a hostile string (U+0000, lone surrogates, C0 controls, very long text; their
// percent-encoded forms in queries and paths) or, where the field takes objects or any JSON value,
// deep nesting (raw JSON text 100 to 40,000 levels deep). Every string field at any depth of a
// body (nested properties, array items, anyOf/oneOf), every query parameter and every path
// parameter gets them: at random among fuzz.ts's cases, and once each in a deterministic pass.
import fc from 'fast-check';
import { plainPath, typesOf, validValue, type Endpoint, type FuzzCase, type Identity, type Schema } from './fuzzCases';

/** One hostile value: what it is (for reports) and how it is written. */
interface Hostile {
  label: string;
  /** A string JSON.stringify writes (escaping U+0000, controls and lone surrogates as \uXXXX). */
  value?: string;
  /** Raw JSON text put in the body in place of the field's value. */
  raw?: string;
}

/** Where a hostile value goes: a field of the body, a query parameter or a path parameter. */
export interface Spot {
  where: 'body' | 'query' | 'path';
  /** `email`, `messages[0].content`, `(body)` for the whole body. */
  field: string;
  /** The field's own schema (strings get hostile strings; objects, arrays and any JSON value get nesting too). */
  schema: Schema;
  /** For the body: the whole (otherwise valid) body with `v` at this spot. */
  put?: (v: unknown) => unknown;
}

const C0 = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('') + '\u007f';
const ODD_UNICODE = '\ufeff\u2028\u202e\uffff';

/** `inner` inside `valid` (before an `@`, else in the middle), so the rest still looks like the value. */
function inside(valid: string, inner: string): string {
  const at = valid.includes('@') ? valid.indexOf('@') : Math.ceil(valid.length / 2);
  return valid.slice(0, at) + inner + valid.slice(at);
}

const longer = (valid: string, length: number) => valid + 'z'.repeat(Math.max(0, length - valid.length));

/**
 * Hostile strings for a field whose valid value is `valid`, most telling first (the deterministic
 * pass sends them in this order: rate-limited routes answer 429 once their budget is spent).
 */
function hostileStrings(valid: string): Hostile[] {
  return [
    { label: 'U+0000 inside', value: inside(valid, '\u0000') },
    { label: 'U+0000', value: '\u0000' },
    { label: 'lone surrogate inside', value: inside(valid, '\udfff') },
    { label: 'lone surrogate', value: '\ud800' },
    { label: 'C0 controls inside', value: inside(valid, C0) },
    { label: 'C0 controls', value: C0 },
    { label: 'BOM, U+2028, U+202E, U+FFFF inside', value: inside(valid, ODD_UNICODE) },
    { label: '10k long, U+0000 at the end', value: `${longer(valid, 10_000)}\u0000` },
    { label: '10k long', value: longer(valid, 10_000) },
    { label: '60k long', value: longer(valid, 60_000) },
    { label: '70k long (body over 64 KiB)', value: longer(valid, 70_000) },
    { label: '20k € (60 KB of UTF-8)', value: valid + '€'.repeat(20_000) },
    // Raw body bytes JSON.stringify never writes: a surrogate as UTF-8 (invalid UTF-8), unescaped controls.
    { label: 'raw bytes ED A0 80 (surrogate as UTF-8) inside', raw: JSON.stringify(valid).replace(/"$/, '\u00ed\u00a0\u0080"') },
    { label: 'raw unescaped U+0001, U+001F inside', raw: JSON.stringify(valid).replace(/"$/, '\u0001\u001f"') },
  ];
}

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Nesting as raw JSON text (JSON.stringify of a 20,000-deep value would overflow the fuzzer's own stack). */
const DEEP: Hostile[] = [
  { label: 'array 100 deep', raw: deepArray(100) },
  { label: 'array 1,000 deep', raw: deepArray(1000) },
  { label: 'array 20,000 deep (40 KB)', raw: deepArray(20_000) },
  { label: 'array 40,000 deep (80 KB, over 64 KiB)', raw: deepArray(40_000) },
  { label: 'object 100 deep', raw: deepObject(100) },
  { label: 'object 1,000 deep', raw: deepObject(1000) },
  { label: 'object 10,000 deep (60 KB)', raw: deepObject(10_000) },
  { label: 'object 20,000 deep (120 KB, over 64 KiB)', raw: deepObject(20_000) },
];

/** Percent-encoded hostile values for a query or path parameter whose valid value is `valid`. */
function hostileEncoded(valid: string, where: 'query' | 'path'): { label: string; encoded: string }[] {
  const enc = encodeURIComponent;
  const inside = (bytes: string) => {
    const at = Math.ceil(valid.length / 2);
    return enc(valid.slice(0, at)) + bytes + enc(valid.slice(at));
  };
  const controls = [...C0].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');
  // Within nginx's 8 KiB request line, and over it (nginx answers 414 itself).
  const long = where === 'query' ? [4000, 10_000] : [1000, 10_000];
  return [
    { label: '%00 inside', encoded: inside('%00') },
    { label: '%00', encoded: '%00' },
    { label: '%ED%A0%80 (lone surrogate as UTF-8) inside', encoded: inside('%ED%A0%80') },
    { label: '%ED%BF%BF (lone surrogate as UTF-8)', encoded: '%ED%BF%BF' },
    { label: '%C0%80 (overlong U+0000)', encoded: '%C0%80' },
    { label: '%FF%FE (not UTF-8)', encoded: inside('%FF%FE') },
    { label: 'C0 controls inside', encoded: inside(controls) },
    { label: 'BOM, U+2028, U+202E, U+FFFF inside', encoded: inside(enc(ODD_UNICODE)) },
    { label: `${long[0]! / 1000}k long, %00 at the end`, encoded: `${enc(longer(valid, long[0]!))}%00` },
    ...long.map((n) => ({ label: `${n / 1000}k long`, encoded: enc(longer(valid, n)) })),
  ];
}

/**
 * The list dialect's query parameters (decision 013, contract/restList.ts) carry JSON: hostile
 * strings go inside it too, where the search term is (`filter={"q":…}`), and deep nesting.
 */
const JSON_PARAMS = new Set(['filter', 'sort', 'range']);

function hostileJsonParam(): { label: string; encoded: string }[] {
  const strings: [string, string][] = [
    ['U+0000', 'fu\u0000zz'],
    ['lone surrogate', 'fu\ud800zz'],
    ['C0 controls', `fu${C0}zz`],
  ];
  const enc = (value: unknown) => encodeURIComponent(JSON.stringify(value));
  return [
    ...strings.flatMap(([label, s]) => [
      { label: `JSON {"q": ${label} inside}`, encoded: enc({ q: s }) },
      { label: `JSON {"id": [${label} inside]}`, encoded: enc({ id: [s] }) },
      { label: `JSON [${label} inside, "ASC"]`, encoded: enc([s, 'ASC']) },
    ]),
    { label: 'JSON {"q": raw %00}', encoded: `${encodeURIComponent('{"q":"fu')}%00${encodeURIComponent('zz"}')}` },
    { label: 'JSON array 100 deep', encoded: encodeURIComponent(deepArray(100)) },
    { label: 'JSON array 1,000 deep', encoded: encodeURIComponent(deepArray(1000)) },
    { label: 'JSON object 100 deep', encoded: encodeURIComponent(deepObject(100)) },
  ];
}

/**
 * The schema with the formats its field names imply where the document gives none (an `email`
 * that is not an address, a `returnUrl` that is not a URL, is refused before it reaches anything).
 */
function hinted(schema: Schema, name = ''): Schema {
  const format = schema.format ?? (/email$/i.test(name) ? 'email' : /ur[li]$/i.test(name) ? 'uri' : undefined);
  return {
    ...schema,
    ...(format && !schema.pattern ? { format } : {}),
    ...(schema.properties ? { properties: Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, hinted(s, k)])) } : {}),
    ...(schema.items ? { items: hinted(schema.items) } : {}),
    ...(schema.anyOf ? { anyOf: schema.anyOf.map((s) => hinted(s, name)) } : {}),
    ...(schema.oneOf ? { oneOf: schema.oneOf.map((s) => hinted(s, name)) } : {}),
  };
}

/** Every spot of a body schema: the value itself, then its properties, array items and alternatives. */
function bodySpots(schema: Schema, field: string): Spot[] {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const seen = new Set<string>();
    return alternatives
      .flatMap((alternative) => bodySpots(alternative, field))
      .filter((s) => !seen.has(`${s.field} ${[...typesOf(s.schema)].join()}`) && seen.add(`${s.field} ${[...typesOf(s.schema)].join()}`));
  }
  const types = typesOf(schema);
  const spots: Spot[] = [];
  if (types.has('string') || types.has('object') || types.has('array'))
    spots.push({ where: 'body', field: field || '(body)', schema, put: (v) => v });
  if (schema.properties) {
    const base = validValue(schema) as Record<string, unknown>;
    for (const [name, property] of Object.entries(schema.properties)) {
      for (const spot of bodySpots(property, field ? `${field}.${name}` : name)) {
        spots.push({ ...spot, put: (v) => ({ ...base, [name]: spot.put!(v) }) });
      }
    }
  }
  if (schema.items) {
    for (const spot of bodySpots(schema.items, `${field}[0]`)) spots.push({ ...spot, put: (v) => [spot.put!(v)] });
  }
  return spots;
}

export const sendsBody = (endpoint: Endpoint) => endpoint.body !== undefined || !['GET', 'HEAD'].includes(endpoint.method);

/** Every spot of an operation: body fields at any depth (or the whole body when it has no schema), query and path parameters. */
export function spotsOf(endpoint: Endpoint): Spot[] {
  const body = endpoint.body
    ? bodySpots(hinted(endpoint.body), '')
    : sendsBody(endpoint)
      ? [{ where: 'body' as const, field: '(body)', schema: { type: 'object' }, put: (v: unknown) => v }]
      : [];
  const param = (where: 'query' | 'path') => (name: string) => ({
    where,
    field: name,
    schema: hinted(endpoint.paramSchemas?.[name] ?? { type: 'string' }, name),
  });
  return [...body, ...endpoint.queryParams.map(param('query')), ...endpoint.pathParams.map(param('path'))];
}

const MARK = '\u0000fuzz-hostile-mark\u0000';

/** One spot's hostile values, each as what to send: the body text, or the path and query. */
export function hostileVariants(endpoint: Endpoint, spot: Spot): { label: string; path: string; body?: string }[] {
  const validOf = (schema: Schema) => {
    const v = validValue(schema);
    return typeof v === 'string' ? v : 'fuzz';
  };
  const base = plainPath(endpoint);
  const types = typesOf(spot.schema);
  if (spot.where === 'body') {
    const values = [...(types.has('string') ? hostileStrings(validOf(spot.schema)) : [])];
    if (types.has('object') || types.has('array')) values.push(...DEEP);
    const { put } = spot;
    return values.map((h) => ({
      label: h.label,
      path: base,
      body: h.raw === undefined ? JSON.stringify(put!(h.value)) : JSON.stringify(put!(MARK)).replace(JSON.stringify(MARK), () => h.raw!),
    }));
  }
  const valid = validOf(spot.schema);
  const encoded = [
    ...hostileEncoded(valid, spot.where),
    ...(spot.where === 'query' && JSON_PARAMS.has(spot.field) ? hostileJsonParam() : []),
  ];
  if (spot.where === 'path') {
    return encoded.map(({ label, encoded: value }) => ({
      label,
      path: endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === spot.field ? value : 'fuzz-id')),
    }));
  }
  // The other query parameters the operation requires, with valid values.
  const others = endpoint.queryParams
    .filter((name) => name !== spot.field && endpoint.requiredParams?.includes(name))
    .map((name) => `${name}=${encodeURIComponent(validOf(endpoint.paramSchemas?.[name] ?? { type: 'string' }))}&`)
    .join('');
  return encoded.map(({ label, encoded: value }) => ({ label, path: `${base}?${others}${spot.field}=${value}` }));
}

/** Signing in or registering ends the session the request came with: only strangers send these valid bodies. */
const STARTS_A_SESSION = new Set(['POST /api/login', 'POST /api/register']);

function caseOf(
  endpoint: Endpoint,
  identity: Identity,
  spot: Spot,
  variant: { label: string; path: string; body?: string },
  ids: { target?: string },
): FuzzCase {
  const label = `${endpoint.method} ${endpoint.path}`;
  // An admin edit of a user reaches the database only for a user that exists: the fuzzer's target account.
  const path =
    spot.where === 'body' && ids.target && endpoint.pathParams.includes('id') ? variant.path.replace('fuzz-id', ids.target) : variant.path;
  const deep =
    DEEP.some((d) => d.label === variant.label) || variant.label.startsWith('JSON array') || variant.label.startsWith('JSON object');
  return {
    endpoint: label,
    kind: deep ? 'deep-nesting' : 'hostile-field',
    identity: STARTS_A_SESSION.has(label) ? 'anonymous' : identity,
    method: endpoint.method,
    path,
    headers:
      variant.body !== undefined
        ? { 'content-type': 'application/json' }
        : sendsBody(endpoint)
          ? { 'content-type': 'application/json' }
          : {},
    ...(variant.body !== undefined
      ? { body: variant.body }
      : sendsBody(endpoint)
        ? { body: JSON.stringify(endpoint.body ? validValue(hinted(endpoint.body)) : {}) }
        : {}),
    field: `${spot.where === 'body' ? 'body ' : spot.where === 'query' ? 'query ' : 'path '}${spot.field}`,
    value: variant.label,
  };
}

/** A random hostile case for `endpoint` as `identity` (fuzz.ts mixes these among the malformed ones). */
export function hostileCase(endpoint: Endpoint, identity: Identity, ids: { target?: string }): fc.Arbitrary<FuzzCase> | undefined {
  const spots = spotsOf(endpoint);
  if (spots.length === 0) return undefined;
  return fc
    .constantFrom(...spots)
    .chain((spot) => fc.constantFrom(...hostileVariants(endpoint, spot)).map((variant) => caseOf(endpoint, identity, spot, variant, ids)));
}

/**
 * Each hostile value to each spot of each operation once, as the identity that gets furthest into
 * it (`endpoint.reach`), the most telling values of every operation first.
 */
export function hostilePass(endpoints: Endpoint[], ids: { target?: string }): FuzzCase[] {
  const rows = endpoints.flatMap((endpoint) =>
    spotsOf(endpoint).flatMap((spot) =>
      hostileVariants(endpoint, spot).map((variant, rank) => ({
        rank,
        c: caseOf(endpoint, endpoint.reach ?? 'anonymous', spot, variant, ids),
      })),
    ),
  );
  return rows.sort((a, b) => a.rank - b.rank).map((r) => r.c);
}
