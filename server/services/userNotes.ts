import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES } from '../../contract/admin';
import { NOTE_MESSAGES, type NoteInput, type UserNote, type UserNotes } from '../../contract/userNotes';
import { isPostgres, type Db } from '../db';
import type { UserNotesTable } from '../db/schema';
import { forbidden, notFound } from '../errors';
import type { Actor, AuditService } from './audit';
import { checkStaffAuthority } from './staffAuthority';
import { noteEditableUntil, noteEditRefusal } from './userNoteRules';

const iso = (ms: number) => new Date(ms).toISOString();

/** A note as `viewerId` sees it: whether, and until when, they may still edit it. */
function toNote(row: UserNotesTable, viewerId: string, now: number): UserNote {
  const until = noteEditableUntil({ authorId: row.author_id, createdAt: row.created_at }, viewerId, now);
  return {
    id: row.id,
    userId: row.user_id,
    authorId: row.author_id,
    authorEmail: row.author_email,
    text: row.text,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    edited: row.updated_at !== row.created_at,
    editableUntil: until === null ? null : iso(until),
  };
}

/**
 * Staff's notes on a user (issue 28): written, listed, and edited by their author for 15 minutes
 * (userNoteRules.ts); never deleted, except with the user. Each write lands with its audit entry in
 * one transaction. `now` (epoch ms) is a parameter so the 15 minutes can be tested.
 */
export function createUserNoteService(deps: { db: Db; audit: AuditService }) {
  const { db, audit } = deps;

  /**
   * 404 unless the user exists. On PostgreSQL the row is share-locked, so a deletion of the user
   * waits for this write and then takes its note with it, rather than the insert failing its key.
   */
  async function requireUser(trx: Db, userId: string): Promise<void> {
    const query = trx.selectFrom('users').select('id').where('id', '=', userId);
    const postgres = isPostgres(trx);
    if (!(await (postgres ? query.forShare() : query).executeTakeFirst())) throw notFound(ADMIN_MESSAGES.userNotFound);
  }

  return {
    /** Every note on the user, newest first; 404 for an unknown user. Not paged: staff write them by hand, a few per person. */
    async list(viewer: Actor, userId: string, now = Date.now()): Promise<UserNotes> {
      await requireUser(db, userId);
      const rows = await db
        .selectFrom('user_notes')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { notes: rows.map((row) => toNote(row, viewer.id, now)) };
    },

    /** Writes a note by `author` on the user, audited as user.note.add; 404 for an unknown user. */
    async add(author: Actor, userId: string, { text }: NoteInput, now = Date.now()): Promise<UserNote> {
      return db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor: author, action: 'writeNotes', targetId: userId });
        await requireUser(trx, userId);
        const row: UserNotesTable = {
          id: randomUUID(),
          user_id: userId,
          author_id: author.id,
          author_email: author.email,
          text,
          created_at: now,
          updated_at: now,
        };
        await trx.insertInto('user_notes').values(row).execute();
        await audit.record(author, { action: 'user.note.add', targetType: 'user', targetId: userId, after: { noteId: row.id, text } }, trx);
        return toNote(row, author.id, now);
      });
    },

    /**
     * Changes the note's text, audited as user.note.edit with the text before and after. 404 for an
     * unknown user or a note not on them; 403 not_note_author, or note_locked after 15 minutes.
     */
    async edit(editor: Actor, userId: string, noteId: string, { text }: NoteInput, now = Date.now()): Promise<UserNote> {
      return db.transaction().execute(async (trx) => {
        await checkStaffAuthority(trx, { actor: editor, action: 'writeNotes', targetId: userId });
        await requireUser(trx, userId);
        const read = trx.selectFrom('user_notes').selectAll().where('id', '=', noteId).where('user_id', '=', userId);
        // Locked on PostgreSQL so two edits at once each audit the text they replaced.
        const postgres = isPostgres(trx);
        const before = await (postgres ? read.forUpdate() : read).executeTakeFirst();
        if (!before) throw notFound(NOTE_MESSAGES.noteNotFound);
        const refusal = noteEditRefusal({ authorId: before.author_id, createdAt: before.created_at }, editor.id, now);
        if (refusal === 'not_note_author') throw forbidden(refusal, NOTE_MESSAGES.notNoteAuthor);
        if (refusal === 'note_locked') throw forbidden(refusal, NOTE_MESSAGES.noteLocked);
        // Later than its writing even if the clock stepped back, so the note still shows as edited.
        const updatedAt = Math.max(now, before.created_at + 1);
        await trx.updateTable('user_notes').set({ text, updated_at: updatedAt }).where('id', '=', noteId).execute();
        await audit.record(
          editor,
          {
            action: 'user.note.edit',
            targetType: 'user',
            targetId: userId,
            before: { noteId, text: before.text },
            after: { noteId, text },
          },
          trx,
        );
        return toNote({ ...before, text, updated_at: updatedAt }, editor.id, now);
      });
    },
  };
}

export type UserNoteService = ReturnType<typeof createUserNoteService>;
