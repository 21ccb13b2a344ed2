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

/** The signed-in user's own data (issue 27, docs/account-data.md): downloading it all, and deleting the account. */
export async function accountDataRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');

  app.get('/export', async (request, reply) => {
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

  app.get('/deletion', { schema: { response: { 200: accountDeletionStatusSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return services.accountDeletion.status(request.user, sessionToken(request));
  });

  // The account itself: '' is `/api/account`, the folder's own address.
  app.delete('', { schema: { body: deleteAccountRequestSchema, response: { 200: accountDeletedSchema } } }, async (request, reply) => {
    const { user } = request;
    // Each attempt may check a password: counted before scrypt, so guesses cannot run through here.
    await enforceLimits(services, ACCOUNT_DATA_MESSAGES.tooManyDeletions, [
      [`account-deletion:user:${user.id}`, ACCOUNT_DATA_RATE_LIMITS.deletionAttemptsPerUser],
    ]);
    await services.accountDeletion.deleteOwnAccount(user, sessionToken(request), request.body);
    // Its sessions are gone with it; the browser drops the cookie and lands signed out.
    clearSessionCookie(reply, secure);
    return { ok: true as const, message: ACCOUNT_DATA_MESSAGES.deleted };
  });
}
