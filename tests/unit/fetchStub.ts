import { vi } from 'vitest';

/** The unit tests of `src/api`: a global fetch that answers with `respond()` and records its calls. */
type FetchArgs = [Parameters<typeof fetch>[0], RequestInit | undefined];

export function stubFetchWith(respond: () => Response | Promise<Response>) {
  const spy = vi.fn(async (..._args: FetchArgs) => respond());
  vi.stubGlobal('fetch', spy);
  return spy;
}

export const jsonResponse = (body: unknown, status = 200, statusText = 'OK'): Response =>
  new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });

/** The path, query, method, credentials and JSON body of the n-th call a stub recorded. */
export function sentBy(spy: ReturnType<typeof stubFetchWith>, n = 0) {
  const [input, init] = spy.mock.calls[n]!;
  const url = new URL(String(input), 'http://localhost');
  return {
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    method: init?.method,
    credentials: init?.credentials,
    body: init?.body === undefined ? undefined : (JSON.parse(String(init.body)) as unknown),
  };
}
