import { focusManager, MutationObserver, QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../src/api/queryClient';

/**
 * §9's query defaults, shown by what they do in a browser (TanStack Query behaves differently
 * without a window, so these run in the portal's jsdom): how often the server is asked.
 */
describe('query client defaults (§9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  /** A screen using the query: TanStack's observer, subscribed as a mounted component would be. */
  function showOnScreen(client: QueryClient, queryKey: string[]) {
    const observer = new QueryObserver(client, { queryKey });
    return observer.subscribe(() => undefined);
  }

  it('asks once for a failing read and once for a failing write: nothing is retried', async () => {
    const fetchSpy = vi.fn(async () => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    vi.stubGlobal('fetch', fetchSpy);
    const client = createQueryClient();
    const leave = showOnScreen(client, ['/api/x']);
    await vi.runAllTimersAsync();
    expect(client.getQueryState(['/api/x'])).toMatchObject({ status: 'error', error: { message: '503: Service Unavailable' } });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    leave();

    const mutationFn = vi.fn(async () => Promise.reject(new Error('down')));
    const write = new MutationObserver(client, { mutationFn }).mutate().catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(await write).toMatchObject({ message: 'down' });
    expect(mutationFn).toHaveBeenCalledTimes(1);
  });

  it('asks once while the data is in use: not on focus, not on a timer, not for a second screen an hour later', async () => {
    const fetchSpy = vi.fn(async () => new Response(JSON.stringify({ totalUsers: 3 }), { status: 200 }));
    vi.stubGlobal('fetch', fetchSpy);
    const client = createQueryClient();
    const first = showOnScreen(client, ['/api/admin/grove-metrics']);
    await vi.runAllTimersAsync();
    expect(fetchSpy).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(60 * 60_000);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    const second = showOnScreen(client, ['/api/admin/grove-metrics']);
    await vi.runAllTimersAsync();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    first();
    second();
  });

  it('does not ask again for a failed read when another screen starts using it', async () => {
    const fetchSpy = vi.fn(async () => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    vi.stubGlobal('fetch', fetchSpy);
    const client = createQueryClient();
    const first = showOnScreen(client, ['/api/x']);
    await vi.runAllTimersAsync();
    expect(client.getQueryState(['/api/x'])?.status).toBe('error');
    const second = showOnScreen(client, ['/api/x']);
    await vi.runAllTimersAsync();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    first();
    second();
  });

  it('keeps data no screen uses for 5 minutes, then forgets it', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ totalUsers: 3 }), { status: 200 }));
    const client = createQueryClient();
    const leave = showOnScreen(client, ['/api/admin/grove-metrics']);
    await vi.runAllTimersAsync();
    leave();
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(client.getQueryData(['/api/admin/grove-metrics'])).toEqual({ totalUsers: 3 });
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['/api/admin/grove-metrics'])).toBeUndefined();
  });
});
