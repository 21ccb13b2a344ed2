/**
 * What the screens validate answers with: a contract schema (zod) fits. The module takes the shape,
 * not zod itself, so pages that trust the server's contract (decision 009) load no zod at all.
 */
export interface AnswerSchema<T> {
  parse(data: unknown): T;
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/** A failed API call; `message` follows spec §8 (`status: statusText` or `status: body text`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The readable part of an error body: our `{ error, message }` JSON's message, else the text. */
export function bodyMessage(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text; // Not JSON: the text itself is the message.
  }
  // Our `{ error, message }` body (contract/errors.ts), checked by hand to keep zod out of this module.
  const message = typeof parsed === 'object' && parsed !== null ? (parsed as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : text;
}

/** §8: status ≥ 500 → `status: statusText`; other non-OK → `status: body text`. */
export async function errorFromResponse(res: Response): Promise<HttpError> {
  if (res.status >= 500) return new HttpError(res.status, `${res.status}: ${res.statusText}`);
  return new HttpError(res.status, `${res.status}: ${bodyMessage(await res.text())}`);
}

/** Every call sends credentials (the session cookie); bodies are JSON. */
export function request(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const hasBody = init.body !== undefined;
  return fetch(path, {
    method: init.method ?? 'GET',
    credentials: 'include',
    headers: hasBody ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' },
    body: hasBody ? JSON.stringify(init.body) : undefined,
  });
}

/** GET a JSON document, validated by `schema` when one is given; throws HttpError per §8. */
export async function getJson<T>(path: string, schema?: AnswerSchema<T>): Promise<T> {
  const res = await request(path);
  if (!res.ok) throw await errorFromResponse(res);
  const body: unknown = await res.json();
  return schema ? schema.parse(body) : (body as T);
}

export interface ActionResult {
  ok: boolean;
  message: string;
  status?: number;
}

/** A call's outcome with its validated answer: failures are values, as with `action`. */
export type CallResult<T> = { ok: true; data: T; status: number } | { ok: false; message: string; status?: number };

/**
 * A POST whose failure is shown to the user rather than thrown (§8: login, logout, register, the
 * e-mail linking calls): not-ok with the status text for 5xx, else the server's message; a network
 * failure yields its error text. On success the answer is validated by `schema`.
 */
export async function call<T>(path: string, schema: AnswerSchema<T> | null, body?: unknown): Promise<CallResult<T>> {
  let res: Response;
  try {
    res = await request(path, { method: 'POST', body });
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  if (!res.ok) {
    const message = res.status >= 500 ? res.statusText : bodyMessage(await res.text());
    return { ok: false, message, status: res.status };
  }
  const answer: unknown = await res.json().catch(() => undefined);
  if (!schema) return { ok: true, data: answer as T, status: res.status };
  const parsed = schema.safeParse(answer);
  if (!parsed.success) return { ok: false, message: 'The server sent an answer this page does not understand', status: res.status };
  return { ok: true, data: parsed.data, status: res.status };
}

/** `call` for answers whose body the page does not read (§7: login, register, logout). */
export async function action(path: string, body?: unknown): Promise<ActionResult> {
  const result = await call(path, null, body);
  return result.ok ? { ok: true, message: '', status: result.status } : result;
}
