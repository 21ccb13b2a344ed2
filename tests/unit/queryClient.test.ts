import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/api/queryClient';

describe('query client defaults (§9)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('never retries, never refetches on focus, interval or mount after an error, never goes stale, keeps 5 minutes', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      retry: false,
      retryOnMount: false,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      staleTime: Infinity,
      gcTime: 5 * 60_000,
    });
    expect(mutations).toMatchObject({ retry: false });
  });

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
