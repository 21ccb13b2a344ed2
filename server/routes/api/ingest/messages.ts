import { z } from 'zod';
import { storedMessageSchema } from '../../../../contract/admin';
import { ingestMessageSchema, ingestThreadSchema, threadIdSchema, threadStoredSchema } from '../../../../contract/ingestion';
import { badRequest } from '../../../errors';
import { ingestCallers, ingestionAccess } from '../../../http/ingestCaller';
import type { App, RouteContext } from '../../../http/types';

/**
 * The ingestion API (docs/ingestion-api.md): the AI service stores chat messages and AI threads,
 * which admins then read. Bearer authentication, no cookies; uses are recorded by ./usage.ts.
 */
export async function ingestionRoutes(app: App, ctx: RouteContext) {
  const { services } = ctx;
  const { caller, ownerOf } = ingestCallers(app, ctx);

  const store = ingestionAccess({ 409: 'A license token writing to a chat session of another user or of no user (session_taken)' });
  app.post(
    '/messages',
    { schema: { body: ingestMessageSchema, response: { 201: storedMessageSchema } }, config: store },
    async (request, reply) => {
      const who = caller(request);
      const userId = await ownerOf(who, request.body.userId);
      reply.code(201);
      return services.messages.store({ by: who.kind, userId }, request.body);
    },
  );

  app.put(
    '/threads/:threadId',
    {
      schema: { params: z.object({ threadId: threadIdSchema }), body: ingestThreadSchema, response: { 200: threadStoredSchema } },
      config: ingestionAccess({ 409: "The thread id is another user's (thread_taken)" }),
    },
    async (request) => {
      const who = caller(request);
      const userId = await ownerOf(who, request.body.userId);
      if (!userId) throw badRequest('invalid_request', 'userId is required with the service token');
      return { ok: true as const, ...(await services.messages.putThread({ by: who.kind, userId }, request.params.threadId, request.body)) };
    },
  );
}
