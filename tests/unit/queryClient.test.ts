import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../contract/user';
import { USER_QUERY_KEY } from '../../src/api/auth';
import { CURRENT_BUILD_QUERY_KEY, RELEASES_QUERY_KEY } from '../../src/api/builds';
import { testConfig } from '../fixtures/runtimeConfig';
import { createQueryClient, seededQueryClient } from '../../src/api/queryClient';

describe('query client (§7, §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fetches the query key as the path, with credentials', async () => {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ totalUsers: 3 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchSpy);
    const data = await createQueryClient().fetchQuery({ queryKey: ['/api/admin/grove-metrics'] });
    expect(data).toEqual({ totalUsers: 3 });
    expect(fetchSpy).toHaveBeenCalledWith('/api/admin/grove-metrics', expect.objectContaining({ credentials: 'include', method: 'GET' }));
  });

  it('raises the §8 error text when the path fails', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(createQueryClient().fetchQuery({ queryKey: ['/api/x'] })).rejects.toThrow('503: Service Unavailable');
  });
});

describe('seededQueryClient (decisions 009, 010)', () => {
  const config = { ...testConfig };
  const user = { id: 'u1', email: 'ada@example.com' } as unknown as CurrentUser;

  it('holds a signed-out visitor as no user and the build the page was rendered with, asking nothing', () => {
    const client = seededQueryClient({ config, signedOut: true, currentBuild: config.defaultBuild });
    expect(client.getQueryData(USER_QUERY_KEY)).toBeNull();
    expect(client.getQueryData(CURRENT_BUILD_QUERY_KEY)).toEqual(config.defaultBuild);
    // No builds offered in the boot data: none held, the page reads them on mount.
    expect(client.getQueryState(RELEASES_QUERY_KEY)).toBeUndefined();
  });

  it('holds the builds offered the download page was rendered with (issue 41)', () => {
    const releases = [{ version: '2026-01-01a', releasedAt: '2026-01-01T00:00:00.000Z', notes: '- New', required: false, downloads: [] }];
    const client = seededQueryClient({ config, signedOut: true, currentBuild: config.defaultBuild, releases });
    expect(client.getQueryData(RELEASES_QUERY_KEY)).toEqual(releases);
  });

  it('holds the signed-in user the page was served for, so no screen asks GET /api/user', async () => {
    const client = seededQueryClient({ config, currentUser: user });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await expect(client.fetchQuery({ queryKey: USER_QUERY_KEY })).resolves.toEqual(user);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('asks when the page did not say who it is for (the Vite dev server)', () => {
    const client = seededQueryClient({ config });
    expect(client.getQueryState(USER_QUERY_KEY)).toBeUndefined();
  });
});
