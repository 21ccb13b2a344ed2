import { randomUUID } from 'node:crypto';
import { AI_HISTORY_LIMIT, ADMIN_MESSAGES, type AiHistory, type StoredMessage } from '../../contract/admin';
import type { IngestMessage, IngestThread } from '../../contract/ingestion';
import type { Db } from '../db';
import type { StoredMessagesTable } from '../db/schema';
import { conflict, notFound } from '../errors';
import { createUserHold } from './userLock';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Who stores: the AI service (trusted: any user or none, any session, any date) or one user through
 * their license token (their own sessions and threads only, dated no later than their arrival).
 */
export interface Writer {
  by: 'service' | 'user';
  userId: string | null;
}

/**
 * When a record happened: as the writer says, except that a user's clock cannot place it after its
 * arrival (a far-future date would top Recent Messages and Find Message for good). Clamped, not
 * refused: a plugin whose clock runs ahead still has its messages kept.
 */
function datedBy(writer: Writer, createdAt: string | undefined, now: number): number {
  const said = createdAt ? Date.parse(createdAt) : now;
  return writer.by === 'user' ? Math.min(said, now) : said;
}

function toStoredMessage(row: StoredMessagesTable): StoredMessage {
  let message: unknown;
  try {
    message = JSON.parse(row.message);
  } catch {
    message = row.message; // Stored before validation existed, or by hand: shown as text.
  }
  return { id: row.id, sessionId: row.session_id, message, createdAt: iso(row.created_at), messageSize: row.message_size };
}

const SESSION_TAKEN = 'This chat session id belongs to another user, or to the AI service alone';

/**
 * Stored chat messages and AI chat threads: written by the AI service through the ingestion API,
 * read by admins (product §2 Find Message, Recent Messages, AI chat history).
 */
export function createMessageService(db: Db) {
  const holdUser = createUserHold(db);
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

    /**
     * `POST /api/ingest/messages`: one message of a chat session, as the AI service stored it. The
     * first message of a session makes its writer's user (or no user) its owner, for good; a user
     * may then add only to sessions they own.
     */
    async store(writer: Writer, input: IngestMessage): Promise<StoredMessage> {
      const now = Date.now();
      const text = JSON.stringify(input.message);
      const row: StoredMessagesTable = {
        id: randomUUID(),
        session_id: input.sessionId,
        user_id: writer.userId,
        message: text,
        message_size: text.length,
        created_at: datedBy(writer, input.createdAt, now),
      };
      await db.transaction().execute(async (trx) => {
        // The user's row first (userLock.ts): a deletion under way finishes, and this write is then refused.
        if (writer.userId !== null) await holdUser(trx, writer.userId);
        // The primary key decides a race for a new session: the loser's insert does nothing (on
        // PostgreSQL it waits for the winner's commit), and the owner it then reads is the winner.
        const claimed = await trx
          .insertInto('chat_sessions')
          .values({ id: input.sessionId, user_id: writer.userId })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!claimed && writer.by === 'user') {
          const session = await trx.selectFrom('chat_sessions').select('user_id').where('id', '=', input.sessionId).executeTakeFirst();
          if (session?.user_id !== writer.userId) throw conflict('session_taken', SESSION_TAKEN);
        }
        await trx.insertInto('stored_messages').values(row).execute();
      });
      return toStoredMessage(row);
    },

    /** `PUT /api/ingest/threads/{id}`: the whole thread replaces what was stored of it. */
    async putThread(writer: Writer & { userId: string }, threadId: string, input: IngestThread): Promise<{ id: string; messages: number }> {
      const now = Date.now();
      const { userId } = writer;
      await db.transaction().execute(async (trx) => {
        await holdUser(trx, userId); // The user's row first (userLock.ts).
        // Inserted next, as a chat session is claimed: of two users racing for a new thread id, one
        // inserts and the other is refused below, rather than failing on the primary key.
        const created = await trx
          .insertInto('ai_threads')
          .values({ id: threadId, user_id: userId, created_at: datedBy(writer, input.createdAt, now), updated_at: now })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!created) {
          // A thread keeps its one user, whoever writes: the service too is refused another's thread.
          const existing = await trx.selectFrom('ai_threads').select('user_id').where('id', '=', threadId).executeTakeFirst();
          if (existing?.user_id !== userId) throw conflict('thread_taken', 'This thread id belongs to another user');
          await trx.updateTable('ai_threads').set({ updated_at: now }).where('id', '=', threadId).execute();
          await trx.deleteFrom('ai_thread_messages').where('thread_id', '=', threadId).execute();
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
