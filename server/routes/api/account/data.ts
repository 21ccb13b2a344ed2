import {
  ACCOUNT_DATA_MESSAGES,
  accountDeletedSchema,
  accountDeletionStatusSchema,
  deleteAccountRequestSchema,
  exportFileName,
} from '../../../../contract/accountData';
import { enforceLimits } from '../../../http/rateLimit';
import { clearSessionCookie, sessionToken } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_DATA_RATE_LIMITS } from '../../../services/rateLimiter';
import { access } from '../../../http/endpointAccess';

/** The signed-in user's own data (issue 27, docs/account-data.md): downloading it all, and deleting the account. */
export async function accountDataRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');

  const download = access.user({
    tag: 'Account',
    limited: true,
    ok: {
      200: {
        description: 'Everything held about the user, as one JSON attachment sage-data-<date>.json (docs/account-data.md)',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    },
  });
  app.get('/export', { config: download }, async (request, reply) => {
    const { user } = request;
    await enforceLimits(services, ACCOUNT_DATA_MESSAGES.tooManyExports, [
      [`account-export:user:${user.id}`, ACCOUNT_DATA_RATE_LIMITS.exportsPerUser],
    ]);
    const now = new Date();
    reply.header('content-type', 'application/json; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${exportFileName(now)}"`);
    reply.header('cache-control', 'no-store');
    return reply.send(services.accountExport.stream(user.id, now));
  });

  app.get(
    '/deletion',
    { schema: { response: { 200: accountDeletionStatusSchema } }, config: access.user({ tag: 'Account' }) },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return services.accountDeletion.status(request.user, sessionToken(request));
    },
  );

  // The account itself: '' is `/api/account`, the folder's own address.
  const deletion = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'confirm is not the username (confirmation_mismatch), or the password is wrong (wrong_password)',
      403: 'No password given, and this browser did not sign in in the last 10 minutes (reauthentication_required)',
      409: 'The only admin (last_admin), or the owner of an organisation (owns_organisation)',
      502: 'Stripe did not cancel a subscription; nothing was deleted (subscription_not_cancelled)',
      503: 'Billing is off while a subscription looks live; nothing was deleted (subscription_not_cancelled)',
    },
  });
  app.delete(
    '',
    { schema: { body: deleteAccountRequestSchema, response: { 200: accountDeletedSchema } }, config: deletion },
    async (request, reply) => {
      const { user } = request;
      // Each attempt may check a password: counted before scrypt, so guesses cannot run through here.
      await enforceLimits(services, ACCOUNT_DATA_MESSAGES.tooManyDeletions, [
        [`account-deletion:user:${user.id}`, ACCOUNT_DATA_RATE_LIMITS.deletionAttemptsPerUser],
      ]);
      await services.accountDeletion.deleteOwnAccount(user, sessionToken(request), request.body);
      // Its sessions are gone with it; the browser drops the cookie and lands signed out.
      clearSessionCookie(reply, secure);
      return { ok: true as const, message: ACCOUNT_DATA_MESSAGES.deleted };
    },
  );
}
