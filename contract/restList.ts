import { z } from 'zod';

/**
 * The list dialect of react-admin's ra-data-simple-rest (decision 013), which the admin console's
 * records (`users`, `audit`) speak: `sort=["field","ASC"]`, `range=[start,end]` (rows, both ends
 * included, from 0) and `filter={…}`, each JSON in the query string. A list answers a JSON array and
 * the total in `Content-Range: <resource> <start>-<end>/<total>`.
 */
export const CONTENT_RANGE_HEADER = 'content-range';

/** A query parameter that carries JSON, checked against `shape`; `example` says what is expected. */
function jsonParam<T extends z.ZodType>(name: string, example: string, shape: T) {
  return z
    .string({ error: `${name} must be given once, as JSON like ${example}` })
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: `${name} must be JSON, like ${example}` });
        return z.NEVER;
      }
    })
    .pipe(shape);
}

// Pairs are checked as two-element arrays rather than z.tuple: zod's tuple would join the zod chunk
// the portal's pages share, for a list only the console asks for.

/** `sort=["field","ASC"|"DESC"]`, the field one of `fields`. */
export function sortParam<const F extends readonly [string, ...string[]]>(fields: F) {
  const example = `["${fields[0]}","ASC"]`;
  const shape = `sort must be a field and an order, like ${example}`;
  return jsonParam('sort', example, z.array(z.string({ error: shape }), { error: shape }).length(2, { error: shape, abort: true }))
    .refine(([field]) => (fields as readonly string[]).includes(field!), `sort field must be one of ${fields.join(', ')}`)
    .refine(([, order]) => order === 'ASC' || order === 'DESC', 'sort order must be ASC or DESC')
    .transform((pair) => pair as [F[number], 'ASC' | 'DESC']);
}

const rowIndex = z
  .number({ error: 'range must be two row numbers, like [0,24]' })
  .int('range must be whole row numbers')
  .min(0, 'range must not be negative');

/** `range=[start,end]`: rows `start` to `end`, both included, at most `max` of them. */
export function rangeParam(max: number) {
  return jsonParam(
    'range',
    '[0,24]',
    z
      .array(rowIndex, { error: 'range must be two row numbers, like [0,24]' })
      .length(2, { error: 'range must be two row numbers, like [0,24]', abort: true }),
  )
    .transform((pair) => pair as [number, number])
    .refine(([start, end]) => end >= start, 'range must not end before it starts')
    .refine(([start, end]) => end - start + 1 <= max, `range must cover at most ${max} rows`);
}

/** `filter={…}` checked against `shape` (an object). */
export function filterParam<T extends z.ZodType>(shape: T) {
  return jsonParam('filter', '{}', shape);
}

/** A list request's parameters, as simple-rest sends them (tests and benchmarks build theirs with this). */
export interface ListParams {
  sort?: readonly [string, 'ASC' | 'DESC'];
  /** Rows from 0, both ends included. */
  range?: readonly [number, number];
  filter?: Record<string, unknown>;
}

/** `sort=…&range=…&filter=…` for `params`, each JSON and URL-encoded; a missing one is left out. */
export function listQuery(params: ListParams): string {
  return (['sort', 'range', 'filter'] as const)
    .filter((name) => params[name] !== undefined)
    .map((name) => `${name}=${encodeURIComponent(JSON.stringify(params[name]))}`)
    .join('&');
}

/**
 * The `Content-Range` of a list's answer: `count` rows from `start` out of `total`, or `*` for the
 * rows when there are none (RFC 9110's form for a range beyond the end).
 */
export function contentRange(resource: string, start: number, count: number, total: number): string {
  return count > 0 ? `${resource} ${start}-${start + count - 1}/${total}` : `${resource} */${total}`;
}
