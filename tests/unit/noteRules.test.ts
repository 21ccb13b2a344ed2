import { describe, expect, it } from 'vitest';
import { NOTE_EDIT_MS, noteEditableUntil, noteEditRefusal, type NoteAuthorship } from '../../server/services/userNoteRules';

const NOW = Date.UTC(2026, 10, 26, 12);
const MINUTE = 60_000;
const written = (minutesAgo: number, authorId: string | null = 'staff-a'): NoteAuthorship => ({
  authorId,
  createdAt: NOW - minutesAgo * MINUTE,
});

describe('who may edit a note on a user, and until when', () => {
  it.each([
    ['its author, just after writing it', written(0), null],
    ['its author, 14 minutes later', written(14), null],
    ['its author, a second before 15 minutes', { authorId: 'staff-a', createdAt: NOW - NOTE_EDIT_MS + 1000 }, null],
    ['its author, exactly 15 minutes later', written(15), 'note_locked'],
    ['its author, a day later', written(24 * 60), 'note_locked'],
    ["its author, a note from the server's future (clocks apart)", written(-1), null],
    ['another staff member, at once', written(0, 'staff-b'), 'not_note_author'],
    ['another staff member, an hour later', written(60, 'staff-b'), 'not_note_author'],
    ['anyone, once the author’s account is deleted', written(1, null), 'not_note_author'],
  ] as const)('%s', (_name, note, refusal) => {
    expect(noteEditRefusal(note, 'staff-a', NOW)).toBe(refusal);
    expect(noteEditableUntil(note, 'staff-a', NOW)).toBe(refusal === null ? note.createdAt + NOTE_EDIT_MS : null);
  });
});
