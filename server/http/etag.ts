import { createHash } from 'node:crypto';

/**
 * Conditional GETs (issue 41): the update check and the releases feed answer a client that already
 * holds their current text with a bodiless 304. One strong ETag per text, from its hash.
 */

/** The strong ETag of a response's text. */
export const etagOf = (body: string): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Whether If-None-Match names `etag` (a list, weak forms, or `*`). */
export function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
