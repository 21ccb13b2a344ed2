import type { z } from 'zod';
import { errorAnswer, HttpError, NO_ANSWER, request } from './client';

/**
 * A failed admin call: our one HttpError, whose message is the server's own (our `{ error, message }`
 * body), so a notification can show it as it stands (§8 `Update Error` with the server message), and
 * whose `code` the screens branch on. A body that is not ours falls back to its text, then the status text.
 */
export async function adminError(res: Response): Promise<HttpError> {
  const answer = errorAnswer(await res.text().catch(() => ''));
  const message = answer.message || res.statusText || `Request failed with status ${res.status}`;
  return new HttpError({ status: res.status, message, code: answer.code, body: answer.body });
}

/**
 * Sends an admin call (credentials always, §7) and throws `adminError` unless it succeeded; a
 * network failure is an HttpError too (status NO_ANSWER, the browser's text).
 */
export async function send(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  let res: Response;
  try {
    res = await request(path, init);
  } catch (err) {
    throw new HttpError({ status: NO_ANSWER, message: err instanceof Error ? err.message : String(err) });
  }
  if (!res.ok) throw await adminError(res);
  return res;
}

/** Sends an admin call and validates its JSON answer against the contract. */
export async function sendFor<T>(schema: z.ZodType<T>, path: string, init?: { method?: string; body?: unknown }): Promise<T> {
  const res = await send(path, init);
  return schema.parse(await res.json());
}

/** A file the server sent as an attachment. */
export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/**
 * Downloads an attachment, named by its Content-Disposition or else `fallbackName`: a GET unless
 * `init` says otherwise (the export of selected users POSTs their ids as JSON).
 */
export async function sendForFile(path: string, fallbackName: string, init?: { method?: string; body?: unknown }): Promise<DownloadedFile> {
  const res = await send(path, init);
  return { blob: await res.blob(), filename: filenameFrom(res.headers.get('content-disposition')) ?? fallbackName };
}

/**
 * The file name a Content-Disposition header gives (RFC 6266): `filename*=UTF-8''…` wins over
 * `filename="…"`; path separators are dropped so a name can never point outside the downloads.
 */
export function filenameFrom(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  let name: string | undefined;
  if (extended?.[2]) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = undefined;
    }
  }
  if (!name) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    name = plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2]?.trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}
