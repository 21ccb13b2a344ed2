import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../../contract/admin';
import { adminOrgRowSchema, adminOrgSchema, orgCreditGrantSchema, orgListQuerySchema, orgPoolSchema } from '../../../../contract/adminOrgs';
import { actorOf, orgParams } from '../../../http/adminTarget';
import { listHeaders, sendList } from '../../../http/adminList';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';

const NO_SUCH_ORG = 'No such organisation (not_found)';

/**
 * Organisations in the staff console (issue 38): listed and searched in simple-rest's dialect,
 * read whole, and credits granted to an organisation's shared pool with a reason (admins only,
 * audited as org.credits.grant).
 */
export async function adminOrgRoutes(app: App, { services }: RouteContext) {
  const { adminOrgs } = services;

  app.get(
    '/orgs',
    {
      schema: { querystring: orgListQuerySchema, response: { 200: z.array(adminOrgRowSchema) } },
      config: access.staff('read', { okHeaders: listHeaders('orgs') }),
    },
    async (request, reply) => {
      const { sort, range, filter } = request.query;
      const [start, end] = range ?? [0, DEFAULT_PAGE_SIZE - 1];
      const [field, order] = sort ?? ['name', 'ASC'];
      const { orgs, total } = await adminOrgs.list({
        sort: field,
        order,
        offset: start,
        limit: end - start + 1,
        q: filter?.q || undefined,
      });
      return sendList(reply, 'orgs', start, orgs, total);
    },
  );

  app.get(
    '/orgs/:id',
    { schema: { params: orgParams, response: { 200: adminOrgSchema } }, config: access.staff('read', { errors: { 404: NO_SUCH_ORG } }) },
    async (request) => adminOrgs.get(request.params.id),
  );

  app.post(
    '/orgs/:id/credits',
    {
      schema: { params: orgParams, body: orgCreditGrantSchema, response: { 200: orgPoolSchema } },
      config: access.staff('grantOrgCredits', {
        errors: { 400: 'No reason, or an amount that is not a whole number from 1 to 1,000,000 (invalid_request)', 404: NO_SUCH_ORG },
      }),
    },
    async (request) => adminOrgs.grantCredits(actorOf(request.user), request.params.id, request.body),
  );
}
