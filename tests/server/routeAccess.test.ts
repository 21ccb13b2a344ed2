/**
 * Default deny (server/routes/access.ts): every route the router lists answers a stranger 401
 * unless it declares itself public, the admin folder's routes answer a signed-in non-admin 403, and
 * the API document says who may call each operation exactly as apiSecurity.json records it, so a
 * route opened or closed by accident fails here.
 */
import { describe, expect, it, vi } from 'vitest';
import { isAdminRoute } from '../../server/routes/access';
import { signedInUser } from './adminFlow';
import expectedSecurity from './apiSecurity.json';
import { databases, errorBody, useTestServer } from './harness';
import { publicReason, publicRoutes, registeredRoutes } from './routeList';

// The app's own onRoute hook, added before anything else is registered, sees every route.
vi.mock('fastify', async () => (await import('./routeList')).fastifyWithRouteList());

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

const UNAUTHORIZED = { error: 'unauthorized', message: 'Authentication required' };
const FORBIDDEN = { error: 'forbidden', message: 'Admins only' };

/** Valid input for the routes that validate before they look at the session (400 would come first). */
const VALID_BODY: Record<string, unknown> = {
  'POST /api/stripe/create-checkout-session': { priceId: 'price_1', productId: 'prod_1' },
  'POST /api/stripe/resume-subscription': { subscriptionId: 'sub_1' },
  'POST /api/account/password': { currentPassword: 'one-time-password', newPassword: 'a-password-of-my-own' },
  'POST /api/account/email': { newEmail: 'new-address@example.com' },
  'DELETE /api/account': { confirm: 'someone' },
  'POST /api/account/passkeys': {
    name: 'Work laptop',
    response: {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      clientExtensionResults: {},
    },
  },
  'PATCH /api/account/passkeys/:id': { name: 'Work laptop' },
  'DELETE /api/account/passkeys/:id': { password: 'a-password' },
  'DELETE /api/account/epic': { password: 'a-password' },
  'POST /api/epic/link-signed-in': { password: 'a-password' },
  'POST /api/account/totp/confirm': { code: '123456' },
  'DELETE /api/account/totp': { password: 'a-password' },
  'POST /api/account/recovery-codes': { password: 'a-password' },
  'POST /api/admin/users/:id/second-factor/reset': { identityCheck: 'Called the number on file' },
  'POST /api/orgs': { name: 'Studio' },
  'PATCH /api/orgs/:id': { name: 'Studio' },
  'POST /api/orgs/:id/transfer': { userId: 'someone' },
  'PATCH /api/orgs/:id/members/:userId': { role: 'member' },
  'POST /api/orgs/:id/invitations': { email: 'invited@example.com' },
  'PUT /api/orgs/:id/billing-details': {
    companyName: 'Studio',
    addressLine1: '1 Road',
    city: 'Berlin',
    postalCode: '10115',
    country: 'DE',
  },
  'POST /api/orgs/:id/checkout': { priceId: 'price_1', seats: 3 },
  'PATCH /api/orgs/:id/subscription': { seats: 3 },
  'POST /api/admin/orgs/:id/credits': { amount: 100, reason: 'Goodwill after an outage' },
  'PUT /api/account/release-emails': { enabled: true },
  'PUT /api/usage/top-up': { enabled: true, threshold: 100, priceId: 'price_1', monthlyCap: 3000 },
  'PUT /api/orgs/:id/top-up': { enabled: true, threshold: 100, priceId: 'price_1', monthlyCap: 3000 },
};

/** A path the route matches: its parameters filled in (`:product` must be a known product). */
const pathOf = (url: string) => url.replace(':product', 'sage').replace(/:\w+/g, 'someone').replace(/\*$/, 'x');

/** Every route of the apps built so far, once. */
function routes(): { method: Method; url: string }[] {
  const seen = new Map(registeredRoutes.map((r) => [`${r.method} ${r.url}`, { method: r.method as Method, url: r.url }]));
  return [...seen.values()];
}

describe.each(databases)('default deny on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  it('answers a stranger 401 on every route that is not listed public', async () => {
    const closed = routes().filter((r) => publicReason(r.method, r.url) === undefined);
    expect(closed.length).toBeGreaterThan(20);
    const stranger = server().client();
    const refusedOthers: string[] = [];
    for (const { method, url } of closed) {
      const key = `${method} ${url}`;
      const body = VALID_BODY[key] ?? (method === 'POST' || method === 'PUT' ? {} : undefined);
      const response = await stranger.request(method, pathOf(url), body === undefined ? {} : { json: body });
      if (response.statusCode !== 401) refusedOthers.push(`${key}: ${response.statusCode}`);
      else if (method !== 'HEAD') expect(errorBody(response), key).toEqual(UNAUTHORIZED);
    }
    expect(refusedOthers).toEqual([]);
  });

  it('answers a signed-in non-admin 403 on every route of the admin folder, and lists no admin route as public', async () => {
    const admin = routes().filter((r) => isAdminRoute(r.url));
    expect(admin.length).toBeGreaterThan(10);
    const user = await signedInUser(server());
    for (const { method, url } of admin) {
      expect(publicReason(method, url), url).toBeUndefined();
      const response = await user.client.request(method, pathOf(url), method === 'POST' || method === 'PUT' ? { json: {} } : {});
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      if (method !== 'HEAD') expect(errorBody(response), `${method} ${url}`).toEqual(FORBIDDEN);
    }
  });

  it('lists only routes that exist, each with its reason', () => {
    const all = routes();
    for (const [key, reason] of Object.entries(publicRoutes())) {
      const [method = '', pattern = ''] = key.split(' ');
      const matched = all.some(
        (r) =>
          (method === '*' || r.method === method) &&
          (r.url === pattern || (pattern.endsWith('*') && r.url.startsWith(pattern.slice(0, -1)))),
      );
      expect(matched, `${key} names no route`).toBe(true);
      expect(reason.length, key).toBeGreaterThan(5);
    }
  });
});

describe('the API document', () => {
  const server = useTestServer(databases[0]!, {}, { epic: false });

  async function security(): Promise<Record<string, Record<string, string[]>[]>> {
    const document = (await server().client().get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    }>();
    return Object.fromEntries(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.security]),
      ),
    );
  }

  it('documents the same operations with the same security as before routes moved into folders', async () => {
    expect(await security()).toEqual(expectedSecurity);
  });

  it('asks for a session exactly on the routes that are not listed public', async () => {
    for (const [key, requirements] of Object.entries(await security())) {
      const [method = '', path = ''] = key.split(' ');
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      const needsSession = requirements.length > 0 && requirements.every((alternative) => 'sessionCookie' in alternative);
      expect(publicReason(method, url) === undefined, key).toBe(needsSession);
    }
  });
});
