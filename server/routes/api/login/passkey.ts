import { okResponseSchema } from '../../../../contract/auth';
import { PASSKEY_MESSAGES, authenticationOptionsSchema, passkeySignInRequestSchema } from '../../../../contract/passkeys';
import { isSuspended } from '../../../../contract/suspension';
import { PASSKEY_CHALLENGE, SUSPENDED } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';
import { refusePasskeySignIn, refuseRetiredPasskeySignIn } from '../../../http/legacyLogin';
import { clearPasskeyCookie, passkeyChallengeToken, setPasskeyCookie } from '../../../http/passkeyCookie';
import { enforceLimits } from '../../../http/rateLimit';
import { startSession } from '../../../http/sessionCookie';
import type { App, RouteContext } from '../../../http/types';
import { AUTH_RATE_LIMITS, PASSKEY_RATE_LIMITS } from '../../../services/rateLimiter';
import { accountSuspended } from '../../../services/users';

/**
 * Signing in with a passkey instead of the e-mail and password (issue 40, decision 049): the
 * browser asks for options (a challenge, kept in its cookie), the authenticator signs it with a
 * passkey it holds for this site, and the answer starts a session.
 */
export async function passkeySignInRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const limit = (checks: Parameters<typeof enforceLimits>[2]) => enforceLimits(services, PASSKEY_MESSAGES.tooManySignIns, checks);

  const options = access.public('signing in', {
    tag: 'Account',
    limited: true,
    errors: { 403: 'LEGACY_LOGIN=off: the passkey sign-in is retired with the e-mail form (password_sign_in_off)' },
  });
  app.post('/passkey/options', { schema: { response: { 200: authenticationOptionsSchema } }, config: options }, async (request, reply) => {
    refuseRetiredPasskeySignIn(config.runtime.legacyLogin);
    await limit([[`passkey-options:ip:${request.ip}`, PASSKEY_RATE_LIMITS.signInOptionsPerIp]]);
    const ceremony = await services.passkeys.signInOptions();
    setPasskeyCookie(reply, ceremony.challenge, secure);
    return { ...ceremony.options };
  });

  const signIn = access.public("signing in: the passkey's signature over this browser's challenge is the credential", {
    tag: 'Account',
    limited: true,
    security: PASSKEY_CHALLENGE,
    errors: {
      400: 'No challenge of this browser to answer, or it expired or was used (passkey_challenge_expired)',
      401: 'No account has this passkey (passkey_unknown), or its answer did not verify (passkey_refused)',
      403: `${SUSPENDED}; or LEGACY_LOGIN refuses the passkey sign-in here or for this account, as it does the password (password_sign_in_off)`,
    },
  });
  app.post(
    '/passkey',
    { schema: { body: passkeySignInRequestSchema, response: { 200: okResponseSchema } }, config: signIn },
    async (request, reply) => {
      const { response } = request.body;
      refuseRetiredPasskeySignIn(config.runtime.legacyLogin);
      // Counted as password sign-ins are, and against the same limits: the address's before anything
      // else, the account's (once the passkey names it) before the signature is checked; a success
      // gives the account's attempt back, so only failures count against it.
      await limit([[`login:ip:${request.ip}`, AUTH_RATE_LIMITS.loginPerIp]]);
      const owner = await services.passkeys.ownerOf(response.id);
      const accountKey = owner ? `login:email:${owner.email ?? owner.id}` : null;
      if (accountKey) await limit([[accountKey, AUTH_RATE_LIMITS.loginPerEmail]]);
      const token = passkeyChallengeToken(request);
      clearPasskeyCookie(reply, secure);
      let verified;
      try {
        verified = await services.passkeys.verifyAssertion(token, response);
      } catch (err) {
        services.metrics.signIn('passkey', 'failure');
        throw err;
      }
      if (accountKey) await services.rateLimiter.giveBack(accountKey);
      if (isSuspended(verified.user.status)) throw accountSuspended();
      refusePasskeySignIn(config.runtime.legacyLogin, verified.user);
      // A passkey is kept on the user's own device: its session lasts as Remember me's does.
      await startSession(request, reply, services, { userId: verified.user.id, persistent: true, secure, method: 'passkey' });
      services.metrics.signIn('passkey', 'success');
      return { ok: true as const, message: 'Signed in' };
    },
  );
}
