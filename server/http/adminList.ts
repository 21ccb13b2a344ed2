import type { FastifyReply } from 'fastify';
import { CONTENT_RANGE_HEADER, contentRange } from '../../contract/restList';

/** What the API document says of the answer of the admin list of `resource`: a page and its place in the whole (decision 013). */
export const listHeaders = (resource: string) => ({
  'Content-Range': {
    type: 'string' as const,
    description: `The rows answered and the total: \`${resource} 0-24/1234\`, or \`${resource} */1234\` past the end`,
  },
});

/**
 * Sends a list's rows, serialized (and checked) by the route's response schema and compressed like
 * any other JSON answer. @fastify/compress's own hook leaves every answer with a Content-Range as
 * it is (it takes it for a byte range), so a list of 1,000 users would leave uncompressed;
 * `reply.compress` does not look at that header.
 */
export function sendList(reply: FastifyReply, resource: string, start: number, rows: unknown[], total: number): FastifyReply {
  reply.header(CONTENT_RANGE_HEADER, contentRange(resource, start, rows.length, total));
  reply.type('application/json; charset=utf-8');
  reply.compress(reply.serialize(rows));
  return reply;
}
