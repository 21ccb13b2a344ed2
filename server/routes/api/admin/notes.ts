import { z } from 'zod';
import { singleLine } from '../../../../contract/text';
import { noteInputSchema, userNoteSchema, userNotesSchema } from '../../../../contract/userNotes';
import { actorOf, userParams } from '../../../http/adminTarget';
import type { App, RouteContext } from '../../../http/types';
import { NO_SUCH_USER } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

/** Staff's notes on a user (issue 28): listed newest first, written, and edited by their author for 15 minutes; never deleted. */
export async function adminNoteRoutes(app: App, { services }: RouteContext) {
  const { userNotes } = services;

  const read = access.staff('read', { errors: { 404: NO_SUCH_USER } });
  app.get('/users/:id/notes', { schema: { params: userParams, response: { 200: userNotesSchema } }, config: read }, async (request) =>
    userNotes.list(actorOf(request.user), request.params.id),
  );

  app.post(
    '/users/:id/notes',
    {
      schema: { params: userParams, body: noteInputSchema, response: { 200: userNoteSchema } },
      config: access.staff('writeNotes', { errors: { 400: NOT_A_NOTE, 404: NO_SUCH_USER } }),
    },
    async (request) => userNotes.add(actorOf(request.user), request.params.id, request.body),
  );

  // 403 not_note_author for another staff member's note, note_locked once its 15 minutes are over.
  app.put(
    '/users/:id/notes/:noteId',
    {
      schema: { params: noteParams, body: noteInputSchema, response: { 200: userNoteSchema } },
      config: access.staff('writeNotes', {
        errors: {
          400: NOT_A_NOTE,
          403: "Another staff member's note (not_note_author), or more than 15 minutes since it was written (note_locked)",
          404: 'No such user, or no such note on them (not_found)',
        },
      }),
    },
    async (request) => userNotes.edit(actorOf(request.user), request.params.id, request.params.noteId, request.body),
  );
}

const NOT_A_NOTE = 'No text, or more than 2,000 characters (invalid_request)';

const noteParams = userParams.extend({ noteId: z.string().check(singleLine('noteId')).trim().min(1).max(100) });
