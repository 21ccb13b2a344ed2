import { z } from 'zod';
import { singleLine } from './text';

/** How many users one export of selected users may name: a selection, not the whole list (issue 28). */
export const SELECTED_EXPORT_MAX = 1000;

/**
 * `POST /api/admin/users/export`: the users the console's User List has selected, answered as the
 * same CSV as the export of every user (`GET /api/admin/users/export`).
 */
export const selectedUsersExportSchema = z.strictObject({
  ids: z
    .array(z.string({ error: 'ids must be a list of user ids' }).check(singleLine('id')).trim().min(1).max(100), {
      error: 'ids must be a list of user ids',
    })
    .min(1, 'Select at least one user')
    .max(SELECTED_EXPORT_MAX, `An export of selected users takes at most ${SELECTED_EXPORT_MAX} users`),
});
export type SelectedUsersExport = z.infer<typeof selectedUsersExportSchema>;
