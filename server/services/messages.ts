import { randomUUID } from 'node:crypto';
import { AI_HISTORY_LIMIT, ADMIN_MESSAGES, type AiHistory, type StoredMessage } from '../../contract/admin';
import type { IngestMessage, IngestThread } from '../../contract/ingestion';
import type { Db } from '../db';
import type { StoredMessagesTable } from '../db/schema';
import { AppError, notFound } from '../errors';

const iso = (ms: number) => new Date(ms).toISOString();

function toStoredMessage(row: StoredMessagesTable): StoredMessage {
  let message: unknown;
  try {
    message = JSON.parse(row.message);
  } catch {
    message = row.message; // Stored before validation existed, or by hand: shown as text.
  }
  return { id: row.id, sessionId: row.session_id, message, createdAt: iso(row.created_at), messageSize: row.message_size };
}

/**
 * Stored chat messages and AI chat threads: written by the AI service through the ingestion API,
 * read by admins (spec §2 Find Message, Recent Messages, AI chat history).
 */
export function createMessageService(db: Db) {
  return {
    /** The newest message of a chat session. */
    async findBySession(sessionId: string): Promise<StoredMessage> {
      const row = await db
        .selectFrom('stored_messages')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) throw notFound(ADMIN_MESSAGES.messageNotFound);
      return toStoredMessage(row);
    },

    async recent(limit: number): Promise<StoredMessage[]> {
      const rows = await db.selectFrom('stored_messages').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
      return rows.map(toStoredMessage);
    },

    /** The user's newest threads (§9: at most 10), each with its messages in order. */
    async aiHistory(userId: string): Promise<AiHistory> {
      const threads = await db
        .selectFrom('ai_threads')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(AI_HISTORY_LIMIT)
        .execute();
      if (threads.length === 0) return { threads: [] };
      const messages = await db
        .selectFrom('ai_thread_messages')
        .selectAll()
        .where(
          'thread_id',
          'in',
          threads.map((t) => t.id),
        )
        .orderBy('thread_id')
        .orderBy('position')
        .execute();
      return {
        threads: threads.map((t) => ({
          id: t.id,
          created_at: iso(t.created_at),
          messages: messages.filter((m) => m.thread_id === t.id).map((m) => ({ role: m.role, content: m.content })),
        })),
      };
    },

    /** `POST /api/ingest/messages`: one message of a chat session, as the AI service stored it. */
    async store(userId: string | null, input: IngestMessage): Promise<StoredMessage> {
      const text = JSON.stringify(input.message);
      const row: StoredMessagesTable = {
        id: randomUUID(),
        session_id: input.sessionId,
        user_id: userId,
        message: text,
        message_size: text.length,
        created_at: input.createdAt ? Date.parse(input.createdAt) : Date.now(),
      };
      await db.insertInto('stored_messages').values(row).execute();
      return toStoredMessage(row);
    },

    /** `PUT /api/ingest/threads/{id}`: the whole thread replaces what was stored of it. */
    async putThread(userId: string, threadId: string, input: IngestThread): Promise<{ id: string; messages: number }> {
      const now = Date.now();
      const createdAt = input.createdAt ? Date.parse(input.createdAt) : now;
      await db.transaction().execute(async (trx) => {
        const existing = await trx.selectFrom('ai_threads').select(['id', 'user_id']).where('id', '=', threadId).executeTakeFirst();
        if (existing && existing.user_id !== userId) throw new AppError(409, 'thread_taken', 'This thread id belongs to another user');
        if (existing) {
          await trx.updateTable('ai_threads').set({ updated_at: now }).where('id', '=', threadId).execute();
          await trx.deleteFrom('ai_thread_messages').where('thread_id', '=', threadId).execute();
        } else {
          await trx.insertInto('ai_threads').values({ id: threadId, user_id: userId, created_at: createdAt, updated_at: now }).execute();
        }
        if (input.messages.length > 0) {
          await trx
            .insertInto('ai_thread_messages')
            .values(input.messages.map((m, position) => ({ thread_id: threadId, position, role: m.role, content: m.content })))
            .execute();
        }
      });
      return { id: threadId, messages: input.messages.length };
    },
  };
}

export type MessageService = ReturnType<typeof createMessageService>;
