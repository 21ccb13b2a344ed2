import { z } from 'zod';

/**
 * Staff's notes on a user (issue 28): short texts a support team keeps about a person, shown on the
 * user's page in the console. A note is never deleted; its author may edit it for
 * NOTE_EDIT_MINUTES after writing it. Times are ISO 8601.
 */

export const NOTE_MAX_LENGTH = 2000;
export const NOTE_EDIT_MINUTES = 15;

/** `POST /api/admin/users/{id}/notes` and `PUT …/notes/{noteId}`: free text, so line breaks and tabs are fine. */
export const noteInputSchema = z.object({
  text: z
    .string({ error: 'text must be a string' })
    .trim()
    .min(1, 'A note needs some text')
    .max(NOTE_MAX_LENGTH, `A note must be at most ${NOTE_MAX_LENGTH.toLocaleString('en')} characters`),
});
export type NoteInput = z.infer<typeof noteInputSchema>;

export const userNoteSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** Null once the author's account is deleted; `authorEmail` still says who wrote it. */
  authorId: z.string().nullable(),
  authorEmail: z.string().nullable(),
  text: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Changed since it was written. */
  edited: z.boolean(),
  /** Until when the staff member asking may edit it: null when it is someone else's or the time has passed. */
  editableUntil: z.string().nullable(),
});
export type UserNote = z.infer<typeof userNoteSchema>;

/** `GET /api/admin/users/{id}/notes`: every note on the user, newest first. */
export const userNotesSchema = z.object({ notes: z.array(userNoteSchema) });
export type UserNotes = z.infer<typeof userNotesSchema>;

/** Why an edit is refused (403), for the console to branch on. */
export const NOTE_ERRORS = {
  notNoteAuthor: 'not_note_author',
  noteLocked: 'note_locked',
} as const;

export const NOTE_MESSAGES = {
  notNoteAuthor: 'Only the staff member who wrote a note can edit it',
  noteLocked: `A note can be edited only in the ${NOTE_EDIT_MINUTES} minutes after it was written`,
  noteNotFound: 'Note not found',
} as const;
