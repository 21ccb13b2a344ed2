import { z } from 'zod';
import { releaseRequestSchema } from '../../../../contract/admin';
import { buildHistoryItemSchema, sageBuildSchema, withdrawBuildSchema } from '../../../../contract/builds';
import { singleLine } from '../../../../contract/text';
import { actorOf } from '../../../http/adminTarget';
import { listHeaders, sendList } from '../../../http/adminList';
import type { App, RouteContext } from '../../../http/types';
import { access } from '../../../http/endpointAccess';

const buildParams = z.object({ version: z.string().check(singleLine('version')).min(1).max(50) });

/**
 * The release channel in the console (issue 41): releasing a build with its notes (the CLI's
 * `release` calls the same service), the history of every build, and withdrawing one with a
 * reason. Each write and its audit entry are one transaction; only admins release and withdraw.
 */
export async function adminBuildRoutes(app: App, { services }: RouteContext) {
  const { builds } = services;

  app.post(
    '/release-sage-build',
    {
      schema: { body: releaseRequestSchema, response: { 200: sageBuildSchema } },
      config: access.staff('releaseBuilds', { errors: { 409: 'The version is not newer than the latest release (version_not_newer)' } }),
    },
    async (request) => {
      const released = await builds.release({ ...request.body, ue54Url: '' }, actorOf(request.user));
      // Its e-mails start now, on this instance, rather than at the next minute's housekeeping
      // (which still picks up what this run leaves: the CLI's releases, retries, a crash).
      services.releaseMails.sendDue().catch((err: unknown) => request.log.error({ err }, 'sending release e-mails failed'));
      return released;
    },
  );

  // Every build there is is one page: a handful a month.
  app.get(
    '/builds',
    {
      schema: { response: { 200: z.array(buildHistoryItemSchema) } },
      config: access.staff('read', { okHeaders: listHeaders('builds') }),
    },
    async (_request, reply) => {
      const history = await builds.history();
      return sendList(reply, 'builds', 0, history, history.length);
    },
  );

  app.post(
    '/builds/:version/withdraw',
    {
      schema: { params: buildParams, body: withdrawBuildSchema, response: { 200: buildHistoryItemSchema } },
      config: access.staff('releaseBuilds', {
        errors: { 404: 'No build of that version was released (build_not_found)', 409: 'The build is already withdrawn (build_withdrawn)' },
      }),
    },
    async (request) => builds.withdraw(request.params.version, request.body.reason, actorOf(request.user)),
  );
}
