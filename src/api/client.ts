/**
 * What the screens validate answers with: a contract schema (zod) fits. The module takes the shape,
 * not zod itself, so pages that trust the server's contract (decision 009) load no zod at all.
 */
export interface AnswerSchema<T> {
  parse(data: unknown): T;
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/**
 * A failed API call, the one error class of both the portal and the admin console (react-admin
 * reads `status`, `message` and `body` off it). `code` is the server's `error` code
 * (contract/errors.ts) when the answer was ours: screens branch on it, never on `message`, which is
 * for people (§8 decides its wording at each call site).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The answer's body: parsed JSON when it was JSON, else its text. */
  readonly body: unknown;

  constructor(init: { status: number; message: string; code?: string; body?: unknown }) {
    super(init.message);
    this.name = 'HttpError';
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
  }
}

/** An error answer read once: its body (JSON or text), and our `{ error, message }` parts when it is ours. */
export interface ErrorAnswer {
  body: unknown;
  code: string | undefined;
  /** Our body's message, else the text itself (§8). */
  message: string;
}

/** Reads an error answer's text (contract/errors.ts `{ error, message }`, checked by hand to keep zod out). */
export function errorAnswer(text: string): ErrorAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { body: text, code: undefined, message: text }; // Not JSON: the text itself is the message.
  }
  const fields = typeof body === 'object' && body !== null ? (body as { error?: unknown; message?: unknown }) : {};
  return {
    body,
    code: typeof fields.error === 'string' ? fields.error : undefined,
    message: typeof fields.message === 'string' ? fields.message : text,
  };
}

/** §8: status ≥ 500 → `status: statusText`; other non-OK → `status: body text`. */
export async function errorFromResponse(res: Response): Promise<HttpError> {
  const answer = errorAnswer(await res.text().catch(() => ''));
  const message = res.status >= 500 ? `${res.status}: ${res.statusText}` : `${res.status}: ${answer.message}`;
  return new HttpError({ status: res.status, message, code: answer.code, body: answer.body });
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

/**
 * An answer whose status says it all: its body is let go unread, so the browser ends the request
 * now rather than holding the body until the answer is collected.
 */
export async function letGo(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

/** GET a JSON document, validated by `schema` when one is given; throws HttpError per §8. */
export async function getJson<T>(path: string, schema?: AnswerSchema<T>): Promise<T> {
  const res = await request(path);
  if (!res.ok) throw await errorFromResponse(res);
  const body: unknown = await res.json();
  return schema ? schema.parse(body) : (body as T);
}

/** A call that got no answer (the network failed): fetch's own `Response.error()` status. */
export const NO_ANSWER = 0;

/** The text of a write's answer this page cannot read (§8 has no words for it). */
export const UNREADABLE_ANSWER = 'The server sent an answer this page does not understand';

/**
 * POSTs a write (or a question asked by POST) and answers its body, validated by `schema` when one
 * is given. Every failure is an HttpError worded as §8 says for the screens that show it: the
 * status text for 5xx, else the server's message (its body text when not ours); a network failure
 * has status NO_ANSWER and the browser's own text. Screens run these through `useMutation`.
 */
export function post<T = unknown>(path: string, schema: AnswerSchema<T> | null = null, body?: unknown): Promise<T> {
  return write('POST', path, schema, body);
}

/** `post`'s twin for a DELETE (ending a session, say): the same answers and failures. */
export function remove<T = unknown>(path: string, schema: AnswerSchema<T> | null = null, body?: unknown): Promise<T> {
  return write('DELETE', path, schema, body);
}

/** `post`'s twin for a PATCH (a change to part of a record: a member's role). */
export function patch<T = unknown>(path: string, schema: AnswerSchema<T> | null = null, body?: unknown): Promise<T> {
  return write('PATCH', path, schema, body);
}

/** `post`'s twin for a PUT (a record given whole: an organisation's billing details). */
export function put<T = unknown>(path: string, schema: AnswerSchema<T> | null = null, body?: unknown): Promise<T> {
  return write('PUT', path, schema, body);
}

async function write<T>(
  method: 'POST' | 'DELETE' | 'PATCH' | 'PUT',
  path: string,
  schema: AnswerSchema<T> | null,
  body: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await request(path, { method, body });
  } catch (err) {
    throw new HttpError({ status: NO_ANSWER, message: err instanceof Error ? err.message : String(err) });
  }
  if (!res.ok) {
    const answer = errorAnswer(await res.text().catch(() => ''));
    const message = res.status >= 500 ? res.statusText : answer.message;
    throw new HttpError({ status: res.status, message, code: answer.code, body: answer.body });
  }
  const answer: unknown = await res.json().catch(() => undefined);
  if (!schema) return answer as T;
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new HttpError({ status: res.status, message: UNREADABLE_ANSWER, body: answer });
  return parsed.data;
}
