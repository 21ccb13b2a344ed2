/**
 * Staff's notes on a user (issue 28): `GET`/`POST /api/admin/users/{id}/notes` and
 * `PUT …/notes/{noteId}`. Written and listed by any admin, edited only by their author within 15
 * minutes, never deleted but with the user; audited, and in the user's own data export.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import { NOTE_MAX_LENGTH, NOTE_MESSAGES, type UserNote, type UserNotes } from '../../contract/userNotes';
import { createAuditService } from '../../server/services/audit';
import { NOTE_EDIT_MS } from '../../server/services/userNoteRules';
import { createUserNoteService } from '../../server/services/userNotes';
import { auditLog, del, put, signedInAdmin, signedInUser, type Signed } from './adminFlow';
import { databases, errorBody, useTestServer, type TestClient } from './harness';

const notesUrl = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/notes`;
const noteUrl = (userId: string, noteId: string) => `${notesUrl(userId)}/${encodeURIComponent(noteId)}`;

describe.each(databases)('notes on a user on $label', (database) => {
  const server = useTestServer(database);

  async function addNote(staff: TestClient, userId: string, text: string): Promise<UserNote> {
    const response = await staff.post(notesUrl(userId), { text });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UserNote>();
  }

  async function notesOf(staff: TestClient, userId: string): Promise<UserNote[]> {
    const response = await staff.get(notesUrl(userId));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<UserNotes>().notes;
  }

  const noteEntries = async (staff: TestClient, userId: string) =>
    (await auditLog(staff, 100)).entries.filter((e: AuditEntry) => e.targetId === userId && e.action.startsWith('user.note.'));

  it('adds notes, lists them newest first, and lets their author edit one, audited with the text before and after', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'noted');

    expect(await notesOf(admin.client, user.id)).toEqual([]);
    const first = await addNote(admin.client, user.id, '  Asked about a refund.\nTold them: 14 days.  ');
    expect(first).toMatchObject({
      userId: user.id,
      authorId: admin.id,
      authorEmail: admin.email,
      text: 'Asked about a refund.\nTold them: 14 days.',
      edited: false,
    });
    expect(Date.parse(first.editableUntil!)).toBe(Date.parse(first.createdAt) + NOTE_EDIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = await addNote(admin.client, user.id, 'Refund sent.');
    expect((await notesOf(admin.client, user.id)).map((n) => n.id)).toEqual([second.id, first.id]);

    const edited = await put(admin.client, noteUrl(user.id, first.id), { text: 'Asked about a refund. Told them: 30 days.' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<UserNote>()).toMatchObject({ id: first.id, text: 'Asked about a refund. Told them: 30 days.', edited: true });
    const [, listedFirst] = await notesOf(admin.client, user.id);
    expect(listedFirst).toMatchObject({ text: 'Asked about a refund. Told them: 30 days.', edited: true, createdAt: first.createdAt });

    // The audit log, newest first: each write with who did it and the text.
    const entries = await noteEntries(admin.client, user.id);
    expect(entries.map((e) => e.action)).toEqual(['user.note.edit', 'user.note.add', 'user.note.add']);
    expect(entries[0]).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      targetType: 'user',
      before: { noteId: first.id, text: 'Asked about a refund.\nTold them: 14 days.' },
      after: { noteId: first.id, text: 'Asked about a refund. Told them: 30 days.' },
    });
    expect(entries[2]).toMatchObject({ before: null, after: { noteId: first.id, text: 'Asked about a refund.\nTold them: 14 days.' } });
  });

  it('refuses an edit 15 minutes after the note was written, and leaves it and the audit log as they were', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'late');
    const note = await addNote(admin.client, user.id, 'Called about an invoice.');
    await server()
      .db.updateTable('user_notes')
      .set({ created_at: Date.now() - NOTE_EDIT_MS, updated_at: Date.now() - NOTE_EDIT_MS })
      .where('id', '=', note.id)
      .execute();

    expect((await notesOf(admin.client, user.id))[0]).toMatchObject({ editableUntil: null, edited: false });
    const refused = await put(admin.client, noteUrl(user.id, note.id), { text: 'Changed' });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual({ error: 'note_locked', message: NOTE_MESSAGES.noteLocked });
    expect((await notesOf(admin.client, user.id))[0]!.text).toBe('Called about an invoice.');
    expect((await noteEntries(admin.client, user.id)).map((e) => e.action)).toEqual(['user.note.add']);
  });

  it('edits up to the last moment of the 15 minutes and not at the moment itself (the service takes the time)', async () => {
    const db = server().db;
    const notes = createUserNoteService({ db, audit: createAuditService(db) });
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'timed');
    const staff = { id: admin.id, email: admin.email };
    const written = Date.UTC(2026, 10, 26, 9);
    const note = await notes.add(staff, user.id, { text: 'First call.' }, written);

    const edited = await notes.edit(staff, user.id, note.id, { text: 'First call, 10 minutes.' }, written + NOTE_EDIT_MS - 1);
    expect(edited).toMatchObject({
      text: 'First call, 10 minutes.',
      edited: true,
      editableUntil: new Date(written + NOTE_EDIT_MS).toISOString(),
    });
    await expect(notes.edit(staff, user.id, note.id, { text: 'Too late.' }, written + NOTE_EDIT_MS)).rejects.toMatchObject({
      statusCode: 403,
      code: 'note_locked',
    });
    expect((await notes.list(staff, user.id, written + NOTE_EDIT_MS)).notes).toEqual([
      expect.objectContaining({ text: 'First call, 10 minutes.', editableUntil: null }),
    ]);
  });

  it("refuses another staff member's edit, whom the list shows no time to edit", async () => {
    const author = await signedInAdmin(server());
    const colleague = await signedInAdmin(server());
    const user = await signedInUser(server(), 'shared');
    const note = await addNote(author.client, user.id, 'Prefers e-mail.');

    expect((await notesOf(colleague.client, user.id))[0]).toMatchObject({ id: note.id, authorEmail: author.email, editableUntil: null });
    const refused = await put(colleague.client, noteUrl(user.id, note.id), { text: 'Prefers phone.' });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual({ error: 'not_note_author', message: NOTE_MESSAGES.notNoteAuthor });
    expect((await notesOf(author.client, user.id))[0]!.text).toBe('Prefers e-mail.');
  });

  it('answers 404 for an unknown user and for a note not on the user', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'known');
    const other = await signedInUser(server(), 'other');
    const note = await addNote(admin.client, user.id, 'A note.');

    for (const response of [
      await admin.client.get(notesUrl('no-such-user')),
      await admin.client.post(notesUrl('no-such-user'), { text: 'Hello' }),
      await put(admin.client, noteUrl('no-such-user', note.id), { text: 'Hello' }),
      await put(admin.client, noteUrl(other.id, note.id), { text: 'Hello' }),
      await put(admin.client, noteUrl(user.id, 'no-such-note'), { text: 'Hello' }),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(errorBody(response).error).toBe('not_found');
    }
    expect(await server().db.selectFrom('user_notes').select('id').where('user_id', '=', 'no-such-user').execute()).toEqual([]);
  });

  it('takes 1 to 2,000 characters after trimming, line breaks included, and refuses anything else with 400', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'wordy');
    const longest = 'x'.repeat(NOTE_MAX_LENGTH);
    expect((await addNote(admin.client, user.id, `\n${longest}\n`)).text).toBe(longest);
    const note = await addNote(admin.client, user.id, 'a');

    for (const body of [{ text: '' }, { text: ' \n\t ' }, { text: 'x'.repeat(NOTE_MAX_LENGTH + 1) }, {}, { text: 42 }]) {
      const added = await admin.client.post(notesUrl(user.id), body);
      expect(added.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(added).error).toBe('invalid_request');
      const edited = await put(admin.client, noteUrl(user.id, note.id), body);
      expect(edited.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await notesOf(admin.client, user.id)).toHaveLength(2);
  });

  it('is for admins only: 401 signed out, 403 for a user, even about themselves', async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'curious');
    const note = await addNote(admin.client, user.id, 'Watch this account.');

    const signedOut = server().client();
    expect((await signedOut.get(notesUrl(user.id))).statusCode).toBe(401);
    expect((await signedOut.post(notesUrl(user.id), { text: 'x' })).statusCode).toBe(401);
    for (const response of [
      await user.client.get(notesUrl(user.id)),
      await user.client.post(notesUrl(user.id), { text: 'x' }),
      await put(user.client, noteUrl(user.id, note.id), { text: 'x' }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).error).toBe('forbidden');
    }
    expect(await notesOf(admin.client, user.id)).toEqual([expect.objectContaining({ text: 'Watch this account.' })]);
  });

  it("puts the notes in the user's own data export, without the staff member's e-mail", async () => {
    const admin = await signedInAdmin(server());
    const user = await signedInUser(server(), 'exports');
    const note = await addNote(admin.client, user.id, 'Asked for their data.');

    const response = await user.client.get('/api/account/export');
    expect(response.statusCode, response.body).toBe(200);
    const file = response.json<{ staffNotes: Record<string, unknown>[]; withheld: { what: string }[] }>();
    expect(file.staffNotes).toEqual([
      {
        id: note.id,
        userId: user.id,
        authorId: admin.id,
        text: 'Asked for their data.',
        createdAt: note.createdAt,
        updatedAt: note.updatedAt,
      },
    ]);
    expect(file.withheld.map((w) => w.what)).toContain('user_notes.author_email');
    expect(response.body.includes(admin.email)).toBe(false);
  });

  it("goes with the user's account, and stays, still saying who wrote it, when its author's account goes", async () => {
    const admin = await signedInAdmin(server());
    const author: Signed = await signedInAdmin(server());
    const user = await signedInUser(server(), 'leaving');
    const kept = await signedInUser(server(), 'staying');
    await addNote(admin.client, user.id, 'Wants to close the account.');
    const byAuthor = await addNote(author.client, kept.id, 'Long-time customer.');

    expect((await del(admin.client, `/api/admin/users/${user.id}`)).statusCode).toBe(200);
    expect(await server().db.selectFrom('user_notes').select('id').where('user_id', '=', user.id).execute()).toEqual([]);

    expect((await del(admin.client, `/api/admin/users/${author.id}`)).statusCode).toBe(200);
    expect((await notesOf(admin.client, kept.id))[0]).toMatchObject({
      id: byAuthor.id,
      authorId: null,
      authorEmail: author.email,
      editableUntil: null,
    });
  });
});
