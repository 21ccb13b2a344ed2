import { describe, expect, it } from 'vitest';
import { signedInAdmin, signedInUser } from './adminFlow';
import { PASSWORD, PUBLIC_URL, databases, errorBody, uniqueEmail, useTestServer } from './harness';

/** Every failure is `{ error, message }` with a message a person can read. */
function expectClearError(response: { statusCode: number; json: () => unknown }, status: number, message: string | RegExp) {
  expect(response.statusCode).toBe(status);
  const body = response.json() as { error: unknown; message: unknown };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(typeof body.error).toBe('string');
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

describe.each(databases)('request handling on $label', (database) => {
  const server = useTestServer(database);

  describe('bodies', () => {
    it('refuses malformed JSON with 400 and says so', async () => {
      const response = await server()
        .client()
        .post('/api/login', undefined, {
          payload: '{"email": "a@example.com", "password": ',
          headers: { 'content-type': 'application/json' },
        });
      expectClearError(response, 400, 'The request body is not valid JSON');
      expect(errorBody(response).error).toBe('invalid_json');
    });

    it('refuses an empty JSON body where a body is needed with the validation error of no body', async () => {
      const response = await server()
        .client()
        .post('/api/login', undefined, {
          payload: '',
          headers: { 'content-type': 'application/json' },
        });
      expectClearError(response, 400, 'The request body must be a JSON object');
      expect(errorBody(response).error).toBe('invalid_request');
      // A body of blanks is still not JSON.
      const blanks = await server()
        .client()
        .post('/api/login', undefined, { payload: '  ', headers: { 'content-type': 'application/json' } });
      expect(errorBody(blanks).error).toBe('invalid_json');
    });

    describe('a route that takes no body, sent Content-Type: application/json and an empty body (issue 36)', () => {
      /** Empty body, JSON content type: what common HTTP clients send with a DELETE or a bare POST. */
      const EMPTY_JSON = { payload: '', headers: { 'content-type': 'application/json' } };

      it('ends another session (DELETE /api/account/sessions/{id})', async () => {
        const email = uniqueEmail('empty-json');
        const browser = server().client();
        await browser.register(email);
        const other = server().client();
        expect((await other.login(email)).statusCode).toBe(200);
        const { sessions } = (await browser.get('/api/account/sessions')).json<{ sessions: { id: string; current: boolean }[] }>();
        const otherId = sessions.find((s) => !s.current)?.id;
        expect(otherId).toBeDefined();
        const response = await browser.request('DELETE', `/api/account/sessions/${otherId}`, EMPTY_JSON);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ ok: true, signedOut: false });
        expect((await other.get('/api/user')).statusCode).toBe(401);
      });

      it('signs out (POST /api/logout) and reads as before (GET /api/user)', async () => {
        const browser = server().client();
        await browser.register(uniqueEmail('empty-json'));
        expect((await browser.request('GET', '/api/user', EMPTY_JSON)).statusCode).toBe(200);
        const response = await browser.request('POST', '/api/logout', EMPTY_JSON);
        expect(response.statusCode).toBe(200);
        expect((await browser.get('/api/user')).statusCode).toBe(401);
      });

      it('reinstates a suspended user (POST /api/admin/users/{id}/reinstate)', async () => {
        const admin = await signedInAdmin(server());
        const user = await signedInUser(server(), 'empty-json');
        const suspend = await admin.client.post(`/api/admin/users/${user.id}/suspend`, { reason: 'Shared the license token' });
        expect(suspend.statusCode).toBe(200);
        const response = await admin.client.request('POST', `/api/admin/users/${user.id}/reinstate`, EMPTY_JSON);
        expect(response.statusCode).toBe(200);
        expect(response.json<{ status: string }>().status).toBe('Active');
        // Again, now as without the header: the same refusal either way.
        const withHeader = await admin.client.request('POST', `/api/admin/users/${user.id}/reinstate`, EMPTY_JSON);
        const without = await admin.client.request('POST', `/api/admin/users/${user.id}/reinstate`);
        expect(withHeader.statusCode).toBe(409);
        expect([withHeader.statusCode, withHeader.json()]).toEqual([without.statusCode, without.json()]);
      });

      it('still refuses it from another site: the Origin rule never depended on the body', async () => {
        const browser = server().client();
        await browser.register(uniqueEmail('empty-json'));
        const response = await browser.request('POST', '/api/logout', {
          ...EMPTY_JSON,
          headers: { ...EMPTY_JSON.headers, origin: 'https://evil.example' },
        });
        expectClearError(response, 403, 'Cross-site requests are not allowed');
        // What a page may send without a preflight is still no JSON, even empty.
        const asText = await browser.request('POST', '/api/logout', { payload: '', headers: { 'content-type': 'text/plain' } });
        expectClearError(asText, 415, 'Send the request body as application/json');
        expect((await browser.get('/api/user')).statusCode).toBe(200);
      });
    });

    it('names the missing field', async () => {
      const client = server().client();
      expectClearError(await client.post('/api/login', { password: PASSWORD }), 400, 'Email is required');
      expectClearError(await client.post('/api/login', { email: 'a@example.com' }), 400, 'Password is required');
      expectClearError(await client.post('/api/register', { email: 'a@example.com' }), 400, 'Password is required');
      expectClearError(await client.post('/api/forgot-password', {}), 400, 'Email is required');
      expectClearError(await client.post('/api/reset-password', { newPassword: PASSWORD }), 400, 'Reset token is required');
      expectClearError(await client.post('/api/login', { email: '', password: PASSWORD }), 400, 'Email is required');
    });

    it('refuses fields of the wrong type with 400 and names the field', async () => {
      const client = server().client();
      expectClearError(await client.post('/api/login', { email: 42, password: PASSWORD }), 400, 'Email must be a string');
      expectClearError(await client.post('/api/login', { email: null, password: PASSWORD }), 400, 'Email must be a string');
      expectClearError(await client.post('/api/login', { email: 'a@example.com', password: ['x'] }), 400, 'Password must be a string');
      expectClearError(
        await client.post('/api/login', { email: 'a@example.com', password: PASSWORD, rememberMe: 'yes' }),
        400,
        'Remember me must be true or false',
      );
      expectClearError(
        await client.post('/api/register', { email: 'a@example.com', password: 12345678 }),
        400,
        'Password must be a string',
      );
      expectClearError(await client.post('/api/reset-password', { token: 7, newPassword: PASSWORD }), 400, 'Reset token must be a string');
      expectClearError(await client.post('/api/forgot-password', { email: { address: 'a@example.com' } }), 400, 'Email must be a string');
    });

    it('lists every problem of a request in one message', async () => {
      const response = await server().client().post('/api/register', { email: 'x', password: 'y' });
      expectClearError(response, 400, 'Invalid email address; Password must be at least 8 characters');
    });

    it('refuses an address that is not an e-mail at registration and reset requests', async () => {
      const response = await server().client().post('/api/register', { email: 'not-an-email', password: PASSWORD });
      expectClearError(response, 400, 'Invalid email address');
      const forgot = await server().client().post('/api/forgot-password', { email: 'not-an-email' });
      expectClearError(forgot, 400, 'Invalid email address');
    });

    it('refuses a JSON body that is not an object', async () => {
      const client = server().client();
      for (const payload of ['[]', '"a@example.com"', '42', 'null', 'true']) {
        const response = await client.post('/api/login', undefined, { payload, headers: { 'content-type': 'application/json' } });
        expectClearError(response, 400, 'The request body must be a JSON object');
      }
    });

    it('refuses a POST with no body at all', async () => {
      const response = await server().client().post('/api/login');
      expectClearError(response, 400, 'The request body must be a JSON object');
    });

    it('refuses text/plain and form-encoded bodies with 415', async () => {
      const client = server().client();
      const email = uniqueEmail();
      const asText = await client.post('/api/register', undefined, {
        payload: JSON.stringify({ email, password: PASSWORD }),
        headers: { 'content-type': 'text/plain' },
      });
      expectClearError(asText, 415, 'Send the request body as application/json');
      const asForm = await client.post('/api/register', undefined, {
        payload: `email=${encodeURIComponent(email)}&password=${PASSWORD}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectClearError(asForm, 415, 'Send the request body as application/json');
      const asMultipart = await client.post('/api/login', undefined, {
        payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--\r\n',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expectClearError(asMultipart, 415, 'Send the request body as application/json');
      // Nothing was created by those attempts.
      const row = await server().db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('reads a body of 64 KiB and refuses one byte more with 413', async () => {
      /** A login body of exactly `bytes` bytes. */
      const loginBody = (bytes: number) => {
        const start = `{"email":"a@example.com","password":"${PASSWORD}","padding":"`;
        return `${start}${'x'.repeat(bytes - start.length - 2)}"}`;
      };
      const post = (payload: string) =>
        server()
          .client()
          .post('/api/login', undefined, { payload, headers: { 'content-type': 'application/json' } });
      // Read and answered: this address has no account.
      expectClearError(await post(loginBody(64 * 1024)), 401, 'Invalid email or password');
      expectClearError(await post(loginBody(64 * 1024 + 1)), 413, 'The request body is too large');
    });

    it('refuses a password over 256 characters without hashing it', async () => {
      const response = await server()
        .client()
        .post('/api/login', { email: 'a@example.com', password: 'x'.repeat(257) });
      expectClearError(response, 400, 'Password must be at most 256 characters');
    });
  });

  describe('cross-site requests', () => {
    it('refuses a POST from another site with 403', async () => {
      const email = uniqueEmail();
      const victim = server().client();
      await victim.register(email);
      for (const url of ['/api/login', '/api/register', '/api/logout', '/api/forgot-password', '/api/reset-password']) {
        const response = await victim.post(url, { email, password: PASSWORD }, { headers: { origin: 'https://evil.example' } });
        expectClearError(response, 403, 'Cross-site requests are not allowed');
      }
      // The cross-site logout did not end the session.
      expect((await victim.get('/api/user')).statusCode).toBe(200);
    });

    it('refuses an origin that only resembles ours', async () => {
      for (const origin of ['http://sage.test.evil.example', 'https://sage.test', 'http://sage.test:8080', 'null']) {
        const response = await server().client().post('/api/login', { email: uniqueEmail(), password: PASSWORD }, { headers: { origin } });
        expect(response.statusCode, origin).toBe(403);
      }
    });

    it('accepts a POST from our own origin', async () => {
      const response = await server()
        .client()
        .post('/api/register', { email: uniqueEmail(), password: PASSWORD }, { headers: { origin: PUBLIC_URL } });
      expect(response.statusCode).toBe(201);
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After once sign-in attempts for one e-mail run out', async () => {
      const email = uniqueEmail();
      await server().client().register(email);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await server().client().login(email, 'wrong-password')).statusCode);
      expect(statuses.every((s) => s === 401)).toBe(true);

      // Even the right password is refused until the window ends.
      const limited = await server().client().login(email, PASSWORD);
      expectClearError(limited, 429, 'Too many sign-in attempts. Please wait a few minutes and try again.');
      expect(errorBody(limited).error).toBe('rate_limited');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);

      // The limit is per e-mail, whatever its case: another account is unaffected.
      expect((await server().client().login(email.toUpperCase(), PASSWORD)).statusCode).toBe(429);
      const other = uniqueEmail();
      await server().client().register(other);
      expect((await server().client().login(other, PASSWORD)).statusCode).toBe(200);
    });

    it('does not count successful sign-ins against the e-mail, so nobody can lock a known address out', async () => {
      const email = uniqueEmail();
      await server().client().register(email);
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) statuses.push((await server().client().login(email)).statusCode);
      expect(statuses.every((s) => s === 200)).toBe(true);

      // Failures still count, and lock the e-mail after 10.
      for (let i = 0; i < 10; i++) expect((await server().client().login(email, 'wrong-password')).statusCode).toBe(401);
      expect((await server().client().login(email)).statusCode).toBe(429);
    });

    it('counts attempts refused for the e-mail against the address too', async () => {
      const email = uniqueEmail();
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await server().client().login(email, 'wrong-password')).statusCode);
      expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      // The address has used up its 30 attempts: another e-mail is refused as well.
      expect((await server().client().login(uniqueEmail(), 'wrong-password')).statusCode).toBe(429);
    });

    it('answers 429 once sign-in attempts from one address run out', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        statuses.push((await server().client().login(uniqueEmail('spray'), 'wrong-password')).statusCode);
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses[30]).toBe(429);
    });

    it('counts a client by its connection, not a spoofed X-Forwarded-For, when no proxy is trusted', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const client = server().client({ 'x-forwarded-for': `203.0.113.${i + 1}` });
        statuses.push((await client.login(uniqueEmail('spoof'), 'wrong-password')).statusCode);
      }
      expect(statuses[30]).toBe(429);
    });

    it('answers 429 once registrations for one e-mail run out', async () => {
      const email = uniqueEmail();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await server().client().post('/api/register', { email, password: PASSWORD })).statusCode);
      }
      expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
    });

    it('answers 429 once registrations from one address run out', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (
            await server()
              .client()
              .post('/api/register', { email: uniqueEmail('bulk'), password: PASSWORD })
          ).statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
      expect(statuses[10]).toBe(429);
    });
  });

  describe('headers and unknown paths', () => {
    const expectSecurityHeaders = (headers: Record<string, unknown>) => {
      const csp = String(headers['content-security-policy']);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBeTruthy();
    };

    it('sends the security headers on successes, errors and unknown paths', async () => {
      const client = server().client();
      for (const response of [
        await client.get('/healthz'),
        await client.get('/api/user'),
        await client.get('/api/nope'),
        await client.post('/api/login', undefined, { payload: '{', headers: { 'content-type': 'application/json' } }),
        await client.post('/api/login', { email: 'a@example.com', password: PASSWORD }, { headers: { origin: 'https://evil.example' } }),
        await client.get('/api/logout'),
      ]) {
        expectSecurityHeaders(response.headers);
      }
    });

    it('answers an unknown /api path with 404 JSON', async () => {
      const client = server().client();
      expectClearError(await client.get('/api/does-not-exist'), 404, 'No such endpoint: GET /api/does-not-exist');
      expectClearError(await client.post('/api/does-not-exist', {}), 404, /No such endpoint/);
      const response = await client.get('/api/does-not-exist?x=1');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(errorBody(response).error).toBe('not_found');
    });
  });
});
