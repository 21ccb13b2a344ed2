import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchCurrentUser, forgotPassword, login, logout, register, resetPassword } from '../../src/api/auth';
import { errorAnswer, errorFromResponse, getJson, HttpError, NO_ANSWER, post, request, UNREADABLE_ANSWER } from '../../src/api/client';
import { currentUserSchema } from '../../contract/user';
import { jsonResponse, stubFetchWith } from './fetchStub';

const textResponse = (body: string, status: number, statusText: string) => new Response(body, { status, statusText });

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false, staffRole: null };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('errorAnswer', () => {
  it.each<[string, string, string | undefined]>([
    ['{"error":"unauthorized","message":"Invalid email or password"}', 'Invalid email or password', 'unauthorized'],
    ['{"error":"Bad Request"}', '{"error":"Bad Request"}', 'Bad Request'],
    ['{"message":42}', '{"message":42}', undefined],
    ['plain text', 'plain text', undefined],
    ['', '', undefined],
  ])('%j → message %j, code %j', (text, message, code) => {
    expect(errorAnswer(text)).toMatchObject({ message, code });
  });
});

describe("the server's error code reaches the screens", () => {
  it('a thrown HttpError carries status, code, message and the parsed body', async () => {
    const body = { error: 'verification_expired', message: 'Verification expired' };
    const error = await errorFromResponse(jsonResponse(body, 410, 'Gone'));
    expect(error).toMatchObject({ status: 410, code: 'verification_expired', message: '410: Verification expired', body });
  });

  it('a failed write keeps the code beside the message; a network failure has none', async () => {
    stubFetchWith(async () => jsonResponse({ error: 'rate_limited', message: 'Too many attempts' }, 429, 'Too Many Requests'));
    await expect(post('/api/x')).rejects.toMatchObject({ status: 429, code: 'rate_limited', message: 'Too many attempts' });
    stubFetchWith(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error: unknown = await post('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: NO_ANSWER, code: undefined, message: 'Failed to fetch' });
  });
});

describe('errorFromResponse and getJson (§8)', () => {
  it.each<[string, Response, string]>([
    ['500 uses the status text', textResponse('stack trace', 500, 'Internal Server Error'), '500: Internal Server Error'],
    ['503 uses the status text', textResponse('', 503, 'Service Unavailable'), '503: Service Unavailable'],
    ['404 uses the body text', textResponse('No such thing', 404, 'Not Found'), '404: No such thing'],
    ['400 extracts the JSON message', jsonResponse({ error: 'Bad Request', message: 'Nope' }, 400, 'Bad Request'), '400: Nope'],
  ])('%s', async (_name, response, message) => {
    const error = await errorFromResponse(response);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.message).toBe(message);
    expect(error.status).toBe(response.status);
  });

  it('getJson parses a successful body with the schema', async () => {
    stubFetchWith(() => jsonResponse(user));
    await expect(getJson('/api/user', currentUserSchema)).resolves.toEqual(user);
  });

  it.each<[number, string, string, string]>([
    [500, 'Internal Server Error', 'ignored', '500: Internal Server Error'],
    [404, 'Not Found', '{"error":"Not Found","message":"Route GET:/x not found"}', '404: Route GET:/x not found'],
  ])('getJson throws on %i', async (status, statusText, body, message) => {
    stubFetchWith(() => textResponse(body, status, statusText));
    await expect(getJson('/x', currentUserSchema)).rejects.toThrow(message);
  });
});

describe('request', () => {
  it.each<[string, { method?: string; body?: unknown }, string, boolean]>([
    ['a GET', {}, 'GET', false],
    ['a POST with a body', { method: 'POST', body: { a: 1 } }, 'POST', true],
    ['a POST without a body', { method: 'POST' }, 'POST', false],
  ])('always sends credentials for %s', async (_name, init, method, hasBody) => {
    const spy = stubFetchWith(() => jsonResponse({}));
    await request('/api/thing', init);
    const [url, sent] = spy.mock.calls[0]!;
    expect(url).toBe('/api/thing');
    expect(sent?.credentials).toBe('include');
    expect(sent?.method).toBe(method);
    expect(sent?.body).toBe(hasBody ? JSON.stringify(init.body) : undefined);
  });
});

describe('post (§8: the words of a failed write)', () => {
  it.each<[string, () => Response, unknown]>([
    ['200 answers the body', () => jsonResponse({ ok: true, message: 'Signed in' }), { ok: true, message: 'Signed in' }],
    ['201 answers the body', () => jsonResponse({ ok: true, message: '' }, 201, 'Created'), { ok: true, message: '' }],
  ])('%s', async (_name, respond, answer) => {
    stubFetchWith(respond);
    await expect(post('/api/login', null, { email: 'a@b.c' })).resolves.toEqual(answer);
  });

  it.each<[string, () => Response | Promise<Response>, { status: number; message: string; code?: string }]>([
    [
      '401 carries the JSON message',
      () => jsonResponse({ error: 'Unauthorized', message: 'Invalid email or password' }, 401, 'Unauthorized'),
      { message: 'Invalid email or password', status: 401, code: 'Unauthorized' },
    ],
    ['409 carries a text body', () => textResponse('Taken', 409, 'Conflict'), { message: 'Taken', status: 409 }],
    [
      '500 carries the status text',
      () => textResponse('{"message":"db down"}', 500, 'Internal Server Error'),
      { message: 'Internal Server Error', status: 500 },
    ],
    ['an empty 400 has no message', () => textResponse('', 400, 'Bad Request'), { message: '', status: 400 }],
    [
      'a network failure carries the error text',
      () => Promise.reject(new TypeError('Failed to fetch')),
      { message: 'Failed to fetch', status: NO_ANSWER },
    ],
  ])('%s', async (_name, respond, expected) => {
    stubFetchWith(respond);
    const error: unknown = await post('/api/login', null, { email: 'a@b.c' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: undefined, ...expected });
  });

  it('validates the answer with the schema, and fails on one it cannot read', async () => {
    stubFetchWith(() => jsonResponse(user));
    await expect(post('/api/x', currentUserSchema)).resolves.toEqual(user);
    stubFetchWith(() => jsonResponse({ id: 1 }));
    await expect(post('/api/x', currentUserSchema)).rejects.toMatchObject({ status: 200, message: UNREADABLE_ANSWER });
  });
});

describe('auth calls', () => {
  it.each<[string, () => Promise<unknown>, string, unknown]>([
    [
      'login',
      () => login({ email: 'a@b.c', password: 'pw', rememberMe: true }),
      '/api/login',
      { email: 'a@b.c', password: 'pw', rememberMe: true },
    ],
    ['register', () => register({ email: 'a@b.c', password: 'password1' }), '/api/register', { email: 'a@b.c', password: 'password1' }],
    ['logout', () => logout(), '/api/logout', undefined],
    ['forgotPassword', () => forgotPassword({ email: 'a@b.c' }), '/api/forgot-password', { email: 'a@b.c' }],
    [
      'resetPassword',
      () => resetPassword({ token: 't', newPassword: 'password1' }),
      '/api/reset-password',
      { token: 't', newPassword: 'password1' },
    ],
  ])('%s POSTs to its endpoint with credentials', async (_name, call, path, body) => {
    const spy = stubFetchWith(() => jsonResponse({ ok: true, message: '' }));
    await call();
    const [url, sent] = spy.mock.calls[0]!;
    expect(url).toBe(path);
    expect(sent?.method).toBe('POST');
    expect(sent?.credentials).toBe('include');
    expect(sent?.body === undefined ? undefined : JSON.parse(String(sent.body))).toEqual(body);
  });

  it('fetchCurrentUser returns the user', async () => {
    const spy = stubFetchWith(() => jsonResponse(user));
    await expect(fetchCurrentUser()).resolves.toEqual(user);
    expect(spy.mock.calls[0]?.[1]?.credentials).toBe('include');
  });

  it('fetchCurrentUser returns null on 401 (signed out)', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Unauthorized', message: 'Not signed in' }, 401, 'Unauthorized'));
    await expect(fetchCurrentUser()).resolves.toBeNull();
  });

  it.each<[number, string, string, string]>([
    [500, 'Internal Server Error', 'boom', '500: Internal Server Error'],
    [403, 'Forbidden', '{"error":"Forbidden","message":"Account disabled"}', '403: Account disabled'],
  ])('fetchCurrentUser throws on %i', async (status, statusText, body, message) => {
    stubFetchWith(() => textResponse(body, status, statusText));
    await expect(fetchCurrentUser()).rejects.toThrow(message);
  });
});
