/**
 * The probe's requests that reached a database or a recursive walk (issue 24), each refused with
 * 400 `{ error, message }` before anything else runs, on both databases. The class is covered by
 * controlCharacters.test.ts; these are the spellings the probe sent.
 */
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from './adminFlow';
import { databases, errorBody, PASSWORD, uniqueEmail, useTestServer } from './harness';

const SERVICE_TOKEN = 'request-input-service-token-0123456789';

describe.each(databases)('request input on $label', (database) => {
  const server = useTestServer(database, { AI_SERVICE_TOKEN: SERVICE_TOKEN });

  it('refuses U+0000 in a sign-in e-mail with 400, signed out', async () => {
    const response = await server().client().post('/api/login', { email: 'victim\u0000@example.com', password: PASSWORD });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'invalid_text', message: 'email must not contain U+0000 or an unpaired surrogate' });
  });

  it('refuses U+0000 in the admin search and a user id', async () => {
    const admin = await signedInAdmin(server());
    const search = await admin.client.get('/api/admin/users/search?query=ab%00cd');
    expect(search.statusCode).toBe(400);
    expect(errorBody(search).error).toBe('invalid_text');
    const user = await admin.client.get('/api/admin/users/%00');
    expect(user.statusCode).toBe(400);
  });

  it('refuses other control characters in a name or address, keeps them in free text', async () => {
    const register = await server()
      .client()
      .post('/api/register', { email: `a\u0007${uniqueEmail()}`, password: PASSWORD });
    expect(register.statusCode).toBe(400);
    expect(errorBody(register).message).toContain('Email must not contain control characters');
    const freeText = await server()
      .client({ authorization: `Bearer ${SERVICE_TOKEN}` })
      .post('/api/ingest/messages', { sessionId: 'tabs-and-lines', message: { text: 'one\ttwo\nthree' } });
    expect(freeText.statusCode).toBe(201);
  });

  it('refuses an ingested message nested 20,000 deep without walking it', async () => {
    const deep = `{"sessionId":"deep","message":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`;
    const response = await server()
      .client({ authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' })
      .request('POST', '/api/ingest/messages', { payload: deep });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response)).toEqual({ error: 'too_deeply_nested', message: 'The request body is nested more than 64 levels deep' });
  });

  it('still takes a message nested as deep as the bound allows', async () => {
    const response = await server()
      .client({ authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' })
      .request('POST', '/api/ingest/messages', { payload: `{"sessionId":"bound","message":${'['.repeat(63)}1${']'.repeat(63)}}` });
    expect(response.statusCode).toBe(201);
  });
});
