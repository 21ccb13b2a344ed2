import { HttpError } from '../../src/api/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES } from '../../contract/admin';
import { dataProvider } from '../../src/dataProvider';
import { jsonResponse, sentBy as sent, stubFetchWith } from './fetchStub';
import { ada } from './adminUser';

/** A list's answer in simple-rest's dialect: the rows, and the total in Content-Range. */
const page = (resource: string, body: unknown[], start: number, total: number) =>
  new Response(JSON.stringify(body), {
    headers: {
      'content-type': 'application/json',
      'content-range': body.length ? `${resource} ${start}-${start + body.length - 1}/${total}` : `${resource} */${total}`,
    },
  });

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
    const { username: _username, ...withoutUsername } = ada;
    stubFetchWith(() => page('users', [withoutUsername], 0, 1));
    await expect(
      dataProvider.getList('users', { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} }),
    ).rejects.toThrow(/username/);
    stubFetchWith(() => jsonResponse(withoutUsername));
    await expect(dataProvider.getOne('users', { id: 'u1' })).rejects.toThrow(/username/);
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
      body: { username: 'ada2', email: 'ada@example.com', isAdmin: true },
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
