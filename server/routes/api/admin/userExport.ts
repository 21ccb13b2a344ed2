import { selectedUsersExportSchema } from '../../../../contract/userExport';
import { actorOf } from '../../../http/adminTarget';
import type { App, RouteContext } from '../../../http/types';

/**
 * The User List's "Export selected" (issue 28): the users it names, as the same CSV as the export
 * of every user (`GET /users/export`), audited as one entry.
 */
export async function adminUserExportRoutes(app: App, { services }: RouteContext) {
  app.post('/users/export', { schema: { body: selectedUsersExportSchema } }, async (request, reply) => {
    const csv = await services.adminUsers.exportSelectedCsv(actorOf(request.user), request.body.ids);
    reply.header('cache-control', 'no-store');
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="users-selected.csv"');
    return reply.send(csv);
  });
}
