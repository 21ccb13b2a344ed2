/**
 * A route's operation in the OpenAPI document (server/plugins/openapi.ts): its zod schemas, made
 * JSON Schema, with what its access declaration says (http/endpointAccess.ts): its group, who may
 * call it, the failures it is known for, and the answers that are not JSON (redirects, CSV).
 */
import type { FastifySchema } from 'fastify';
import { ERROR_CODES } from '../../contract/errors';
import { ORG_ERRORS, orgRolesRefused } from '../../contract/orgs';
import { ROLE_REFUSAL, STAFF_ROLES, staffMay } from '../../contract/staffRoles';
import type { ApiDoc } from '../http/apiDoc';
import type { EndpointAccess } from '../http/endpointAccess';

const ERROR_REF = '#/components/schemas/ApiError';
const SUCCESS: Record<string, string> = { 200: 'OK', 201: 'Created' };
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The `{ error, message }` answers a route gives, by status, each with the reasons for it. */
function errorResponses(method: string, schema: FastifySchema, access: EndpointAccess, doc: ApiDoc): Record<string, unknown> {
  const reasons = new Map<string, string[]>();
  const add = (status: number | string, reason: string) => reasons.set(String(status), [...(reasons.get(String(status)) ?? []), reason]);

  if (schema.body || schema.querystring || schema.params) add(400, 'A field is missing or not valid (invalid_request)');
  if (schema.body) add(400, 'The body is not JSON (invalid_json)');
  const { security } = access;
  const required = security.length > 0 && !security.some((s) => Object.keys(s).length === 0);
  if (required && security.every((s) => 'sessionCookie' in s)) add(401, 'Not signed in (unauthorized)');
  if (required && security.every((s) => 'bearerToken' in s)) add(401, 'No valid token (unauthorized)');
  if (access.who === 'staff') {
    add(403, `Signed in, but not as an admin (${ERROR_CODES.forbidden})`);
    // The roles that may not (decision 030); a staff route with no action is for admins only.
    const { action } = access;
    const refused = STAFF_ROLES.filter((role) => (action === null ? role !== 'admin' : !staffMay(role, action)));
    if (refused.length > 0) add(403, `${ROLE_REFUSAL.message} (${ERROR_CODES.roleForbidden}): not for ${refused.join(' or ')}`);
  }
  if (access.who === 'user' && access.org) {
    // The role table of contract/orgs.ts, as it stands: who may not.
    add(404, `Not a member of the organisation, or no such organisation (${ORG_ERRORS.notFound.error})`);
    const refused = orgRolesRefused(access.org);
    if (refused.length > 0)
      add(403, `${ORG_ERRORS.roleForbidden.message} (${ORG_ERRORS.roleForbidden.error}): not for ${refused.join(' or ')}`);
  }
  if (required && security.every((s) => 'signInCookie' in s)) add(403, 'No Epic sign-in in progress in this browser (no_pending_sign_in)');
  if (STATE_CHANGING.has(method)) add(403, "Sent by another site's page: its Origin is not ours (cross_origin)");
  for (const [status, reason] of Object.entries(doc.errors ?? {})) add(status, reason);
  if (doc.limited) add(429, 'Too many requests (rate_limited)');
  add('4XX', 'Any other refusal');
  add('5XX', 'The server failed (internal)');

  return Object.fromEntries(
    [...reasons].map(([status, list]) => [
      status,
      {
        $ref: ERROR_REF,
        description: list.join('; '),
        ...(status === '429' ? { headers: { 'Retry-After': { type: 'integer', description: 'Seconds until the limit resets' } } } : {}),
      },
    ]),
  );
}

/**
 * The route's schema as the document shows it: its tag, security, its own answers, then the error
 * answers. A route that declares no description is left without `security` (openapi.test.ts looks
 * for that).
 */
export function documentRoute(method: string, access: EndpointAccess | undefined, schema: FastifySchema): FastifySchema {
  const doc = access?.doc;
  if (!access || !doc) return schema;
  // The route's own answers (JSON Schema by now), with a description: @fastify/swagger's default is "Default Response".
  const own = Object.fromEntries(
    Object.entries((schema.response ?? {}) as Record<string, object>).map(([status, json]) => [
      status,
      {
        'x-response-description': SUCCESS[status] ?? 'Answer',
        ...(status === '200' && doc.okHeaders ? { headers: doc.okHeaders } : {}),
        ...json,
      },
    ]),
  );
  const response = doc.redirect
    ? {
        302: {
          type: 'null',
          description: doc.redirect,
          headers: { Location: { type: 'string', description: 'Where the browser goes next' } },
        },
      }
    : { ...own, ...doc.ok, ...errorResponses(method, schema, access, doc) };
  return { ...schema, tags: [doc.tag], security: access.security, response } as FastifySchema;
}
