import { NOTE_EDIT_MINUTES, NOTE_ERRORS } from '../../contract/userNotes';

/** The rules of staff's notes on a user (issue 28), free of I/O: tested by a table of cases. */

export const NOTE_EDIT_MS = NOTE_EDIT_MINUTES * 60_000;

/** What the rules read of a note: who wrote it (null once their account is gone) and when (epoch ms). */
export interface NoteAuthorship {
  authorId: string | null;
  createdAt: number;
}

export type NoteEditRefusal = (typeof NOTE_ERRORS)[keyof typeof NOTE_ERRORS];

/**
 * Why `editorId` may not edit the note at `now`, or null. Only its author, and only before
 * NOTE_EDIT_MINUTES have passed: a note others may have read and acted on stays as it was.
 * Someone else's note is refused as such whatever its age.
 */
export function noteEditRefusal(note: NoteAuthorship, editorId: string, now: number): NoteEditRefusal | null {
  if (note.authorId === null || note.authorId !== editorId) return NOTE_ERRORS.notNoteAuthor;
  return now < note.createdAt + NOTE_EDIT_MS ? null : NOTE_ERRORS.noteLocked;
}

/** Until when (epoch ms) `viewerId` may edit the note, or null when they may not at `now`. */
export function noteEditableUntil(note: NoteAuthorship, viewerId: string, now: number): number | null {
  return noteEditRefusal(note, viewerId, now) === null ? note.createdAt + NOTE_EDIT_MS : null;
}
