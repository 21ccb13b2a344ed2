/**
 * The guards of server/plugins/auth.ts (decision 014): `requireUser` answers after validation,
 * `requireAdmin` before it, both with the bodies the API has always given, and `request.user` is
 * there only behind a guard.
 */
import { describe, expect, it } from 'vitest';
// The guards' additions to Fastify's types come with their module's declarations.
import type {} from '../../server/plugins/auth';
import { insertUsers, signedInAdmin, signedInUser, userRow } from './adminFlow';
import { buildExtraApp, databases, errorBody, TestClient, uniqueEmail, useTestServer } from './harness';

const UNAUTHORIZED = { error: 'unauthorized', message: 'Authentication required' };
const FORBIDDEN = { error: 'forbidden', message: 'Admins only' };
const INTERNAL = { error: 'internal', message: 'Something went wrong. Please try again.' };

describe.each(databases)('auth guards on $label', (database) => {
  const server = useTestServer(database);

  describe('requireUser', () => {
    it('answers a signed-out caller, or a cookie of no session, with the 401 body', async () => {
      for (const client of [server().client(), server().client({ cookie: 'sage_session=not-a-session' })]) {
        for (const [method, url] of [
          ['GET', '/api/user'],
          ['GET', '/api/stripe/subscription-status'],
          ['POST', '/api/auth/ue-store-payload'],
          ['GET', '/api/sage/someone/license'],
        ] as const) {
          const response = await client.request(method, url);
          expect(response.statusCode, `${method} ${url}`).toBe(401);
          expect(errorBody(response), `${method} ${url}`).toEqual(UNAUTHORIZED);
        }
      }
    });

    it('lets a signed-in user through, with request.user set to them', async () => {
      const user = await signedInUser(server());
      const me = await user.client.get('/api/user');
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ id: user.id, email: user.email });
      const license = await user.client.get(`/api/sage/${user.id}/license`);
      expect(license.statusCode).toBe(200);
      // The handler's own check, after the guard: another user's license is for admins only.
      const other = await user.client.get('/api/sage/someone-else/license');
      expect(other.statusCode).toBe(403);
      expect(errorBody(other)).toEqual(FORBIDDEN);
    });

    it('validates first, as before: a signed-out caller with invalid input gets the 400 (or 404), not the 401', async () => {
      const anonymous = server().client();
      const checkout = await anonymous.post('/api/stripe/create-checkout-session', {});
      expect(checkout.statusCode).toBe(400);
      expect(errorBody(checkout).error).toBe('invalid_request');

      const badQuery = await anonymous.get('/api/sage/someone/license?download=yes');
      expect(badQuery.statusCode).toBe(400);
      expect(errorBody(badQuery)).toEqual({ error: 'invalid_request', message: 'download must be true or false' });

      // The license route's unknown product is a 404 whoever asks, before the session is looked at.
      const unknownProduct = await anonymous.get('/api/grove/someone/license');
      expect(unknownProduct.statusCode).toBe(404);
      expect(errorBody(unknownProduct)).toEqual({ error: 'not_found', message: 'Unknown product' });
    });
  });

  describe('requireAdmin', () => {
    it('answers 401 signed out and 403 to a non-admin before it validates the query or body', async () => {
      const user = await signedInUser(server());
      for (const [method, url, body] of [
        ['GET', '/api/admin/insights?days=14', undefined],
        ['GET', '/api/admin/users/search?query=', undefined],
        ['POST', '/api/admin/release-sage-build', { version: '' }],
        ['PUT', `/api/admin/users/${user.id}`, { username: '' }],
      ] as const) {
        const opts = body === undefined ? {} : { json: body };
        const signedOut = await server().client().request(method, url, opts);
        expect(signedOut.statusCode, `${method} ${url}`).toBe(401);
        expect(errorBody(signedOut)).toEqual(UNAUTHORIZED);

        const nonAdmin = await user.client.request(method, url, opts);
        expect(nonAdmin.statusCode, `${method} ${url}`).toBe(403);
        expect(errorBody(nonAdmin)).toEqual(FORBIDDEN);
      }
    });

    it('lets an admin through to validation and to the handler', async () => {
      const admin = await signedInAdmin(server());
      const invalid = await admin.client.get('/api/admin/insights?days=14');
      expect(invalid.statusCode).toBe(400);
      expect(errorBody(invalid).error).toBe('invalid_request');
      // A write's audit entry names the admin the guard put on request.user.
      const [target] = await insertUsers(server().db, [userRow()]);
      const update = await admin.client.request('PUT', `/api/admin/users/${target!.id}`, {
        json: { username: 'renamed-by-guarded-admin', email: target!.email, status: 'Active', isAdmin: false },
      });
      expect(update.statusCode).toBe(200);
      const entry = await server()
        .db.selectFrom('audit_log')
        .select(['actor_id', 'actor_email'])
        .where('action', '=', 'user.update')
        .where('target_id', '=', target!.id)
        .executeTakeFirstOrThrow();
      expect(entry).toEqual({ actor_id: admin.id, actor_email: admin.email });
    });
  });

  describe('request.user', () => {
    it('is the guarded user on a route with requireUser, and a 500 (never undefined) on a route without a guard', async () => {
      const app = await buildExtraApp(server().db);
      try {
        app.get('/test/guarded', { preHandler: app.requireUser }, async (request) => ({ id: request.user.id }));
        app.get('/test/unguarded', async (request) => ({ id: request.user.id }));
        await app.ready();

        const signedOut = new TestClient(app);
        const refused = await signedOut.get('/test/guarded');
        expect(refused.statusCode).toBe(401);
        expect(errorBody(refused)).toEqual(UNAUTHORIZED);

        const browser = new TestClient(app);
        await browser.register(uniqueEmail('guarded'));
        const me = (await browser.get('/api/user')).json<{ id: string }>();
        const guarded = await browser.get('/test/guarded');
        expect(guarded.statusCode).toBe(200);
        expect(guarded.json()).toEqual({ id: me.id });

        const unguarded = await browser.get('/test/unguarded');
        expect(unguarded.statusCode).toBe(500);
        expect(errorBody(unguarded)).toEqual(INTERNAL);
      } finally {
        await app.close();
      }
    });
  });
});
