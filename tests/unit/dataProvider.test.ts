import { HttpError } from '../../src/api/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, type AdminUser, type StoredMessage } from '../../contract/admin';
import { dataProvider } from '../../src/dataProvider';
import { filenameFrom } from '../../src/dataProvider/http';
import { jsonResponse, stubFetchWith } from './fetchStub';

const ada: AdminUser = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  status: 'Active',
  isAdmin: false,
  token: 'tok-1',
  epicDisplayName: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
};

const stored: StoredMessage = {
  id: 'm1',
  sessionId: 's-1',
  message: { text: 'hi' },
  createdAt: '2026-01-02T03:04:05.000Z',
  messageSize: 15,
};

/** A list's answer in simple-rest's dialect: the rows, and the total in Content-Range. */
const page = (resource: string, body: unknown[], start: number, total: number) =>
  new Response(JSON.stringify(body), {
    headers: {
      'content-type': 'application/json',
      'content-range': body.length ? `${resource} ${start}-${start + body.length - 1}/${total}` : `${resource} */${total}`,
    },
  });

const file = (body: string, disposition?: string) =>
  new Response(body, { headers: disposition ? { 'content-disposition': disposition } : {} });

/** The URL, method and JSON body of the n-th fetch call. */
function sent(spy: ReturnType<typeof stubFetchWith>, n = 0) {
  const [input, init] = spy.mock.calls[n]!;
  const url = new URL(String(input), 'http://localhost');
  return {
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    method: init?.method,
    credentials: init?.credentials,
    body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('users', () => {
  it('getList asks simple-rest’s way (sort, range, filter as JSON) and reads the total from Content-Range', async () => {
    const spy = stubFetchWith(() => page('users', [ada], 50, 1234));
    const result = await dataProvider.getList('users', {
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'username', order: 'ASC' },
      filter: { q: 'ada' },
    });
    expect(result).toEqual({ data: [ada], total: 1234 });
    expect(sent(spy)).toEqual({
      path: '/api/admin/users',
      query: { sort: '["username","ASC"]', range: '[50,74]', filter: '{"q":"ada"}' },
      method: 'GET',
      credentials: 'include',
      body: undefined,
    });
  });

  it('getList reads the total of an empty page', async () => {
    stubFetchWith(() => page('users', [], 1250, 1234));
    await expect(
      dataProvider.getList('users', { pagination: { page: 51, perPage: 25 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} }),
    ).resolves.toEqual({ data: [], total: 1234 });
  });

  it('getList refuses an answer without a total', async () => {
    stubFetchWith(() => jsonResponse([ada]));
    await expect(
      dataProvider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} }),
    ).rejects.toThrow(/Content-Range/);
  });

  it('checks every user it reads against the contract', async () => {
    const { token: _token, ...withoutToken } = ada;
    stubFetchWith(() => page('users', [withoutToken], 0, 1));
    await expect(
      dataProvider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} }),
    ).rejects.toThrow(/token/);
    stubFetchWith(() => jsonResponse(withoutToken));
    await expect(dataProvider.getOne('users', { id: 'u1' })).rejects.toThrow(/token/);
  });

  it('getOne reads one user', async () => {
    const spy = stubFetchWith(() => jsonResponse(ada));
    await expect(dataProvider.getOne('users', { id: 'u 1' })).resolves.toEqual({ data: ada });
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/u%201', method: 'GET', credentials: 'include' });
  });

  it('getMany asks for the users by id in one call', async () => {
    const grace = { ...ada, id: 'u2', username: 'grace' };
    const spy = stubFetchWith(() => page('users', [ada, grace], 0, 2));
    await expect(dataProvider.getMany('users', { ids: ['u1', 'u2'] })).resolves.toEqual({ data: [ada, grace] });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users', query: { filter: '{"id":["u1","u2"]}' }, method: 'GET' });
  });

  it('update PUTs the editable fields only', async () => {
    const spy = stubFetchWith(() => jsonResponse({ ...ada, username: 'ada2', isAdmin: true }));
    const result = await dataProvider.update('users', {
      id: 'u1',
      data: { ...ada, username: 'ada2', isAdmin: true },
      previousData: ada,
    });
    expect(result.data).toMatchObject({ username: 'ada2', isAdmin: true });
    expect(sent(spy)).toMatchObject({
      path: '/api/admin/users/u1',
      method: 'PUT',
      credentials: 'include',
      body: { username: 'ada2', email: 'ada@example.com', isAdmin: true, status: 'Active' },
    });
  });

  it.each([
    [400, 'Bad Request', ADMIN_MESSAGES.selfDemotion],
    [409, 'Conflict', ADMIN_MESSAGES.emailTaken],
    [403, 'Forbidden', 'Admin only'],
  ])('update turns a %i into an HttpError with the server message', async (status, statusText, message) => {
    stubFetchWith(() => jsonResponse({ error: statusText, message }, status, statusText));
    const error: unknown = await dataProvider.update('users', { id: 'u1', data: ada, previousData: ada }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message, status, body: { error: statusText, message } });
  });

  it('an answer that is not our JSON error falls back to its text, then the status text', async () => {
    stubFetchWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    await expect(dataProvider.getOne('users', { id: 'u1' })).rejects.toMatchObject({ message: 'Bad Gateway', status: 502 });
    stubFetchWith(() => new Response('upstream down', { status: 503, statusText: 'Service Unavailable' }));
    await expect(dataProvider.getOne('users', { id: 'u1' })).rejects.toMatchObject({ message: 'upstream down', status: 503 });
  });

  it('delete sends DELETE and answers the deleted user the server sends back', async () => {
    const spy = stubFetchWith(() => jsonResponse(ada));
    await expect(dataProvider.delete('users', { id: 'u1', previousData: ada })).resolves.toEqual({ data: ada });
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/u1', method: 'DELETE', credentials: 'include' });
  });

  it('delete passes on a refusal', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Bad Request', message: ADMIN_MESSAGES.selfDeletion }, 400, 'Bad Request'));
    await expect(dataProvider.delete('users', { id: 'u1' })).rejects.toMatchObject({ message: ADMIN_MESSAGES.selfDeletion, status: 400 });
  });

  it('search asks /users/search with the term', async () => {
    const spy = stubFetchWith(() => jsonResponse([ada]));
    await expect(dataProvider.search('ada & co')).resolves.toEqual([ada]);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/search', query: { query: 'ada & co' }, method: 'GET' });
  });

  it('exportUsers downloads users.csv', async () => {
    const spy = stubFetchWith(() => file('id,username\n', 'attachment; filename="users.csv"'));
    const { blob, filename } = await dataProvider.exportUsers();
    expect(filename).toBe('users.csv');
    expect(await blob.text()).toBe('id,username\n');
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/export', method: 'GET', credentials: 'include' });
  });

  it('exportUsers fails with the server message', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Forbidden', message: 'Admins only' }, 403, 'Forbidden'));
    await expect(dataProvider.exportUsers()).rejects.toMatchObject({ message: 'Admins only', status: 403 });
  });

  it('downloadLicense asks for the download and names the file from Content-Disposition', async () => {
    const spy = stubFetchWith(() => file('{"payload":{}}', 'attachment; filename="sage-license-u1.json"'));
    const { blob, filename } = await dataProvider.downloadLicense('u1');
    expect(filename).toBe('sage-license-u1.json');
    expect(await blob.text()).toBe('{"payload":{}}');
    expect(sent(spy)).toMatchObject({ path: '/api/sage/u1/license', query: { download: 'true' }, method: 'GET' });
  });

  it('downloadLicense names the file itself when the server does not', async () => {
    stubFetchWith(() => file('{}'));
    await expect(dataProvider.downloadLicense('u9')).resolves.toMatchObject({ filename: 'sage-license-u9.json' });
  });
});

describe('ai-history', () => {
  const thread = (n: number) => ({
    id: `t${n}`,
    created_at: '2026-01-02T03:04:05.000Z',
    messages: [{ role: 'assistant', content: `hello ${n}` }],
  });

  it('getList reads a user’s threads as records, at most 10', async () => {
    const spy = stubFetchWith(() => jsonResponse({ threads: Array.from({ length: 12 }, (_, n) => thread(n)) }));
    const result = await dataProvider.getList('ai-history', { filter: { userId: 'u1' } });
    expect(result.total).toBe(10);
    expect(result.data.map((t) => t.id)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9']);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/u1/ai-history', method: 'GET', credentials: 'include' });
  });

  it('getList needs the userId filter', async () => {
    stubFetchWith(() => jsonResponse({ threads: [] }));
    await expect(dataProvider.getList('ai-history', { filter: {} })).rejects.toThrow(/userId/);
  });
});

describe('audit', () => {
  it('getList pages through the audit log, newest first, with the total from Content-Range', async () => {
    const entry = {
      id: 'a1',
      actorId: 'u0',
      actorEmail: 'root@example.com',
      action: 'user.update',
      targetType: 'user',
      targetId: 'u1',
      before: { username: 'ada' },
      after: { username: 'ada2' },
      createdAt: '2026-01-02T03:04:05.000Z',
    };
    const spy = stubFetchWith(() => page('audit', [entry], 25, 51));
    await expect(
      dataProvider.getList('audit', { pagination: { page: 2, perPage: 25 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} }),
    ).resolves.toEqual({
      data: [entry],
      total: 51,
    });
    expect(sent(spy)).toMatchObject({
      path: '/api/admin/audit',
      query: { sort: '["createdAt","DESC"]', range: '[25,49]', filter: '{}' },
      method: 'GET',
    });
  });
});

describe('messages', () => {
  it('findBySessionId asks with the session id and a cache buster', async () => {
    const spy = stubFetchWith(() => jsonResponse(stored));
    await expect(dataProvider.findBySessionId('s-1')).resolves.toEqual(stored);
    const call = sent(spy);
    expect(call).toMatchObject({ path: '/api/admin/messages/search', method: 'GET', credentials: 'include' });
    expect(call.query).toEqual({ sessionId: 's-1', _t: expect.stringMatching(/^\d+$/) });
  });

  it('findBySessionId fails with a 404 when nothing is stored', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Not Found', message: ADMIN_MESSAGES.messageNotFound }, 404, 'Not Found'));
    await expect(dataProvider.findBySessionId('nope')).rejects.toMatchObject({ status: 404, message: ADMIN_MESSAGES.messageNotFound });
  });

  it('recent asks for `limit` messages with a cache buster', async () => {
    const spy = stubFetchWith(() => jsonResponse({ messages: [stored] }));
    await expect(dataProvider.recent(20)).resolves.toEqual([stored]);
    const call = sent(spy);
    expect(call).toMatchObject({ path: '/api/admin/messages/recent', method: 'GET' });
    expect(call.query).toEqual({ limit: '20', _t: expect.stringMatching(/^\d+$/) });
  });
});

describe('the other calls', () => {
  it('groveMetrics reads the user count', async () => {
    const spy = stubFetchWith(() => jsonResponse({ userStats: { totalUsers: 42 } }));
    await expect(dataProvider.groveMetrics()).resolves.toEqual({ userStats: { totalUsers: 42 } });
    expect(sent(spy)).toMatchObject({ path: '/api/admin/grove-metrics', method: 'GET', credentials: 'include' });
  });

  it('release POSTs the version and the three URLs and answers the build', async () => {
    const build = {
      version: '2026-01-01a',
      ue54Url: '',
      ue55Url: 'https://x/5.5.zip',
      ue56Url: 'https://x/5.6.zip',
      ue57Url: 'https://x/5.7.zip',
    };
    const spy = stubFetchWith(() => jsonResponse(build));
    const request = { version: '2026-01-01a', ue55Url: build.ue55Url, ue56Url: build.ue56Url, ue57Url: build.ue57Url };
    await expect(dataProvider.release(request)).resolves.toEqual(build);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/release-sage-build', method: 'POST', credentials: 'include', body: request });
  });

  it('release fails with the server message', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Bad Request', message: 'The UE 5.7 URL is not valid' }, 400, 'Bad Request'));
    await expect(dataProvider.release({ version: 'v', ue55Url: 'https://x', ue56Url: 'https://x', ue57Url: 'x' })).rejects.toMatchObject({
      status: 400,
      message: 'The UE 5.7 URL is not valid',
    });
  });
});

describe('filenameFrom (Content-Disposition)', () => {
  it.each<[string | null, string | null]>([
    ['attachment; filename="users.csv"', 'users.csv'],
    ['attachment; filename=users.csv', 'users.csv'],
    ['attachment; filename="a \\"b\\".json"', 'a "b".json'],
    ['attachment; filename="x.json"; filename*=UTF-8\'\'sage%20license.json', 'sage license.json'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', null],
    [null, null],
  ])('%j → %j', (header, name) => {
    expect(filenameFrom(header)).toBe(name);
  });
});
