import type { fetchUtils } from 'react-admin';
import { send } from '../api/adminHttp';

/** What ra-data-simple-rest reads of an answer (fetchUtils.fetchJson's shape). */
export interface HttpClientAnswer {
  status: number;
  headers: Headers;
  body: string;
  json: unknown;
}

/**
 * The `httpClient` ra-data-simple-rest sends the console's record calls through: the admin `send`,
 * so they carry the session cookie and fail as every admin call does (`adminError`: the server's
 * message; a 401 or 403 then reaches the authProvider). simple-rest hands a body over as JSON text:
 * it is read back so that `request`, shared with the portal, stays the one place bodies are written.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}): Promise<HttpClientAnswer> {
  const body = typeof options.body === 'string' && options.body ? (JSON.parse(options.body) as unknown) : undefined;
  const res = await send(url, { method: options.method, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text, json: text ? (JSON.parse(text) as unknown) : undefined };
}
