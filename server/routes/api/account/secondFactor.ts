import { okResponseSchema } from '../../../../contract/auth';
import {
  codeRequestSchema,
  ownerProofSchema,
  recoveryCodesSchema,
  secondFactorStatusSchema,
  totpEnrolmentSchema,
} from '../../../../contract/secondFactor';
import { access } from '../../../http/endpointAccess';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../../services/rateLimiter';
import type { User } from '../../../services/users';

const TOO_MANY = 'Too many attempts. Please wait a few minutes and try again.';

/** The signed-in user's two-step sign-in (issue 40): the authenticator app and the recovery codes. */
export async function accountSecondFactorRoutes(app: App, { services }: RouteContext) {
  const { secondFactor } = services;

  /**
   * Codes and passwords are guesses: counted before they are checked, as sign-in's are, and a
   * success gives its attempt back.
   */
  async function limited<T>(user: User, work: () => Promise<T>): Promise<T> {
    const key = `second-factor:user:${user.id}`;
    await enforceLimits(services, TOO_MANY, [[key, ACCOUNT_SECURITY_RATE_LIMITS.secondFactorPerUser]]);
    const result = await work();
    await services.rateLimiter.giveBack(key);
    return result;
  }

  app.get(
    '/second-factor',
    { schema: { response: { 200: secondFactorStatusSchema } }, config: access.user({ tag: 'Account' }) },
    async (request) => secondFactor.status(request.user),
  );

  const start = access.user({
    tag: 'Account',
    errors: {
      409: 'An authenticator app is set up already (totp_enrolled), or the account signs in with Epic only and has no password (no_password)',
    },
  });
  app.post('/totp', { schema: { response: { 200: totpEnrolmentSchema } }, config: start }, async (request) =>
    secondFactor.startTotp(request.user),
  );

  const confirm = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'Not the current code of the app being set up (wrong_code)',
      409: 'No setup in progress, or a newer one replaced it (totp_not_started); set up already (totp_enrolled)',
    },
  });
  app.post(
    '/totp/confirm',
    { schema: { body: codeRequestSchema, response: { 200: recoveryCodesSchema } }, config: confirm },
    async (request) => ({ recoveryCodes: await limited(request.user, () => secondFactor.confirmTotp(request.user, request.body.code)) }),
  );

  const remove = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'Neither the password nor a fresh code (wrong_proof)',
      409: 'No authenticator app is set up (second_factor_not_enrolled)',
    },
  });
  app.delete('/totp', { schema: { body: ownerProofSchema, response: { 200: okResponseSchema } }, config: remove }, async (request) => {
    await limited(request.user, () => secondFactor.removeTotp(request.user, request.body));
    return { ok: true as const, message: 'Two-step sign-in is off.' };
  });

  const regenerate = access.user({
    tag: 'Account',
    limited: true,
    errors: { 400: 'Neither the password nor a fresh code (wrong_proof)', 409: 'No second factor is set up (second_factor_not_enrolled)' },
  });
  app.post(
    '/recovery-codes',
    { schema: { body: ownerProofSchema, response: { 200: recoveryCodesSchema } }, config: regenerate },
    async (request) => ({
      recoveryCodes: await limited(request.user, () => secondFactor.regenerateRecoveryCodes(request.user, request.body)),
    }),
  );
}
