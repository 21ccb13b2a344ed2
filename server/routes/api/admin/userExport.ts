import { selectedUsersExportSchema } from '../../../../contract/userExport';
import { actorOf } from '../../../http/adminTarget';
import type { App, RouteContext } from '../../../http/types';
import { csvAttachment } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';

/**
 * The User List's "Export selected" (issue 28): the users it names, as the same CSV as the export
 * of every user (`GET /users/export`), audited as one entry.
 */
export async function adminUserExportRoutes(app: App, { services }: RouteContext) {
  const config = access.staff('exportSelectedUsers', { ok: csvAttachment('The users named (those that exist), as a CSV attachment') });
  app.post('/users/export', { schema: { body: selectedUsersExportSchema }, config }, async (request, reply) => {
    const csv = await services.adminUsers.exportSelectedCsv(actorOf(request.user), request.body.ids);
    reply.header('cache-control', 'no-store');
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="users-selected.csv"');
    return reply.send(csv);
  });
}
