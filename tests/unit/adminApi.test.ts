import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES, type StoredMessage } from '../../contract/admin';
import {
  downloadLicense,
  exportUsers,
  fetchAiThreads,
  fetchGroveMetrics,
  fetchRecentMessages,
  findMessage,
  releaseBuild,
  searchUsers,
} from '../../src/api/admin';
import { filenameFrom, sendForFile } from '../../src/api/adminHttp';
import { HttpError, NO_ANSWER } from '../../src/api/client';
import { exportSelectedUsers } from '../../src/api/userExport';
import { jsonResponse, sentBy as sent, stubFetchWith } from './fetchStub';
import { ada } from './adminUser';

const stored: StoredMessage = {
  id: 'm1',
  sessionId: 's-1',
  message: { text: 'hi' },
  createdAt: '2026-01-02T03:04:05.000Z',
  messageSize: 15,
};

const file = (body: string, disposition?: string) =>
  new Response(body, { headers: disposition ? { 'content-disposition': disposition } : {} });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('users beyond their records', () => {
  it('search asks /users/search with the term', async () => {
    const spy = stubFetchWith(() => jsonResponse([ada]));
    await expect(searchUsers('ada & co')).resolves.toEqual([ada]);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/search', query: { query: 'ada & co' }, method: 'GET' });
  });

  it('exportUsers downloads users.csv', async () => {
    const spy = stubFetchWith(() => file('id,username\n', 'attachment; filename="users.csv"'));
    const { blob, filename } = await exportUsers();
    expect(filename).toBe('users.csv');
    expect(await blob.text()).toBe('id,username\n');
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/export', method: 'GET', credentials: 'include' });
  });

  it('exportUsers fails with the server message', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Forbidden', message: 'Admins only' }, 403, 'Forbidden'));
    await expect(exportUsers()).rejects.toMatchObject({ message: 'Admins only', status: 403 });
  });

  it('downloadLicense asks for the download and names the file from Content-Disposition', async () => {
    const spy = stubFetchWith(() => file('{"payload":{}}', 'attachment; filename="sage-license-u1.json"'));
    const { blob, filename } = await downloadLicense('u1');
    expect(filename).toBe('sage-license-u1.json');
    expect(await blob.text()).toBe('{"payload":{}}');
    expect(sent(spy)).toMatchObject({ path: '/api/sage/u1/license', query: { download: 'true' }, method: 'GET' });
  });

  it('downloadLicense names the file itself when the server does not', async () => {
    stubFetchWith(() => file('{}'));
    await expect(downloadLicense('u9')).resolves.toMatchObject({ filename: 'sage-license-u9.json' });
  });
});

describe('downloads', () => {
  it('sendForFile GETs without a body unless told otherwise', async () => {
    const spy = stubFetchWith(() => file('a'));
    await expect(sendForFile('/api/admin/x', 'x.txt')).resolves.toMatchObject({ filename: 'x.txt' });
    expect(sent(spy)).toMatchObject({ method: 'GET', credentials: 'include', body: undefined });
  });

  it('sendForFile sends the method and a JSON body when given', async () => {
    const spy = stubFetchWith(() => file('a', 'attachment; filename="y.txt"'));
    await expect(sendForFile('/api/admin/x', 'x.txt', { method: 'POST', body: { a: 1 } })).resolves.toMatchObject({
      filename: 'y.txt',
    });
    expect(sent(spy)).toMatchObject({ path: '/api/admin/x', method: 'POST', credentials: 'include', body: { a: 1 } });
    expect(new Headers(spy.mock.calls[0]![1]?.headers).get('content-type')).toBe('application/json');
  });

  it('exportSelectedUsers POSTs the ids and names the file from Content-Disposition', async () => {
    const spy = stubFetchWith(() => file('id,username\r\nu1,ada\r\n', 'attachment; filename="users-selected.csv"'));
    const { blob, filename } = await exportSelectedUsers(['u1', 'u2']);
    expect(filename).toBe('users-selected.csv');
    expect(await blob.text()).toBe('id,username\r\nu1,ada\r\n');
    expect(sent(spy)).toMatchObject({
      path: '/api/admin/users/export',
      method: 'POST',
      credentials: 'include',
      body: { ids: ['u1', 'u2'] },
    });
  });

  it('exportSelectedUsers names the file itself when the server does not', async () => {
    stubFetchWith(() => file('id\r\n'));
    await expect(exportSelectedUsers(['u1'])).resolves.toMatchObject({ filename: 'users-selected.csv' });
  });

  it('exportSelectedUsers fails as every admin call does: the server’s message and code', async () => {
    stubFetchWith(() => jsonResponse({ error: 'role_forbidden', message: 'Your role does not allow this' }, 403, 'Forbidden'));
    const error: unknown = await exportSelectedUsers(['u1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 403, code: 'role_forbidden', message: 'Your role does not allow this' });
  });

  it('exportSelectedUsers falls back to the status text when the body is not ours', async () => {
    stubFetchWith(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    await expect(exportSelectedUsers(['u1'])).rejects.toMatchObject({ status: 502, message: 'Bad Gateway', code: undefined });
  });

  it('exportSelectedUsers turns a network failure into an HttpError', async () => {
    stubFetchWith(() => Promise.reject(new TypeError('Failed to fetch')));
    const error: unknown = await exportSelectedUsers(['u1']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: NO_ANSWER, message: 'Failed to fetch' });
  });
});

describe('ai-history', () => {
  const thread = (n: number) => ({
    id: `t${n}`,
    created_at: '2026-01-02T03:04:05.000Z',
    messages: [{ role: 'assistant', content: `hello ${n}` }],
  });

  it('reads a user’s threads, at most 10', async () => {
    const spy = stubFetchWith(() => jsonResponse({ threads: Array.from({ length: 12 }, (_, n) => thread(n)) }));
    const threads = await fetchAiThreads('u1');
    expect(threads.map((t) => t.id)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9']);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/users/u1/ai-history', method: 'GET', credentials: 'include' });
  });
});

describe('messages', () => {
  it('findBySessionId asks with the session id and a cache buster', async () => {
    const spy = stubFetchWith(() => jsonResponse(stored));
    await expect(findMessage('s-1')).resolves.toEqual(stored);
    const call = sent(spy);
    expect(call).toMatchObject({ path: '/api/admin/messages/search', method: 'GET', credentials: 'include' });
    expect(call.query).toEqual({ sessionId: 's-1', _t: expect.stringMatching(/^\d+$/) });
  });

  it('findBySessionId fails with a 404 when nothing is stored', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Not Found', message: ADMIN_MESSAGES.messageNotFound }, 404, 'Not Found'));
    await expect(findMessage('nope')).rejects.toMatchObject({ status: 404, message: ADMIN_MESSAGES.messageNotFound });
  });

  it('recent asks for `limit` messages with a cache buster', async () => {
    const spy = stubFetchWith(() => jsonResponse({ messages: [stored] }));
    await expect(fetchRecentMessages(20)).resolves.toEqual([stored]);
    const call = sent(spy);
    expect(call).toMatchObject({ path: '/api/admin/messages/recent', method: 'GET' });
    expect(call.query).toEqual({ limit: '20', _t: expect.stringMatching(/^\d+$/) });
  });
});

describe('the other calls', () => {
  it('a network failure is an HttpError too, with the browser’s text', async () => {
    stubFetchWith(() => Promise.reject(new TypeError('Failed to fetch')));
    const error: unknown = await fetchGroveMetrics().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: NO_ANSWER, message: 'Failed to fetch' });
  });

  it('groveMetrics reads the user count', async () => {
    const spy = stubFetchWith(() => jsonResponse({ userStats: { totalUsers: 42 } }));
    await expect(fetchGroveMetrics()).resolves.toEqual({ userStats: { totalUsers: 42 } });
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
    await expect(releaseBuild(request)).resolves.toEqual(build);
    expect(sent(spy)).toMatchObject({ path: '/api/admin/release-sage-build', method: 'POST', credentials: 'include', body: request });
  });

  it('release fails with the server message', async () => {
    stubFetchWith(() => jsonResponse({ error: 'Bad Request', message: 'The UE 5.7 URL is not valid' }, 400, 'Bad Request'));
    await expect(releaseBuild({ version: 'v', ue55Url: 'https://x', ue56Url: 'https://x', ue57Url: 'x' })).rejects.toMatchObject({
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
