import {
  PASSKEY_MESSAGES,
  addPasskeyRequestSchema,
  passkeyAddedSchema,
  passkeyAnswerSchema,
  passkeyListSchema,
  passkeyParamsSchema,
  passkeyRemovedSchema,
  registrationOptionsSchema,
  removePasskeyRequestSchema,
  renamePasskeyRequestSchema,
} from '../../../../contract/passkeys';
import { SESSION_AND_PASSKEY_CHALLENGE } from '../../../http/apiDoc';
import { access } from '../../../http/endpointAccess';
import { clearPasskeyCookie, passkeyChallengeToken, setPasskeyCookie } from '../../../http/passkeyCookie';
import { enforceLimits } from '../../../http/rateLimit';
import type { App, RouteContext } from '../../../http/types';
import { PASSKEY_RATE_LIMITS } from '../../../services/rateLimiter';

const NO_PASSWORD = 'The account signs in with Epic and has no password (no_password)';

/** The signed-in user's passkeys (issue 40, decision 049): for accounts with a password. */
export async function accountPasskeyRoutes(app: App, { config, services }: RouteContext) {
  const secure = config.publicUrl.startsWith('https:');
  const { passkeys } = services;
  const countChange = (userId: string) =>
    enforceLimits(services, PASSKEY_MESSAGES.tooManyChanges, [[`passkey-change:user:${userId}`, PASSKEY_RATE_LIMITS.changesPerUser]]);

  app.get('/passkeys', { schema: { response: { 200: passkeyListSchema } }, config: access.user({ tag: 'Account' }) }, async (request) => ({
    passkeys: await passkeys.list(request.user.id),
  }));

  const options = access.user({
    tag: 'Account',
    limited: true,
    errors: { 409: `${NO_PASSWORD}, or it has as many passkeys as it may (passkey_limit)` },
  });
  app.post('/passkeys/options', { schema: { response: { 200: registrationOptionsSchema } }, config: options }, async (request, reply) => {
    await countChange(request.user.id);
    const ceremony = await passkeys.registrationOptions(request.user);
    setPasskeyCookie(reply, ceremony.challenge, secure);
    return { ...ceremony.options, rp: { ...ceremony.options.rp } };
  });

  const add = access.user({
    tag: 'Account',
    security: SESSION_AND_PASSKEY_CHALLENGE,
    errors: {
      400: 'No challenge of this browser to answer, or it expired (passkey_challenge_expired); the answer did not verify (passkey_refused)',
      409: `${NO_PASSWORD}; the passkey is registered already (passkey_exists); too many passkeys (passkey_limit)`,
    },
  });
  app.post(
    '/passkeys',
    { schema: { body: addPasskeyRequestSchema, response: { 201: passkeyAddedSchema } }, config: add },
    async (request, reply) => {
      // The challenge is spent by this answer, whatever comes of it.
      const token = passkeyChallengeToken(request);
      clearPasskeyCookie(reply, secure);
      const added = await passkeys.add(request.user, token, request.body.name, request.body.response);
      return reply.code(201).send({ ok: true as const, ...added });
    },
  );

  const rename = access.user({ tag: 'Account', limited: true, errors: { 404: 'The user has no passkey with this id (not_found)' } });
  app.patch(
    '/passkeys/:id',
    { schema: { params: passkeyParamsSchema, body: renamePasskeyRequestSchema, response: { 200: passkeyAnswerSchema } }, config: rename },
    async (request) => {
      await countChange(request.user.id);
      return { ok: true as const, passkey: await passkeys.rename(request.user, request.params.id, request.body.name) };
    },
  );

  const remove = access.user({
    tag: 'Account',
    limited: true,
    errors: {
      400: 'The password is wrong (wrong_password)',
      404: 'The user has no passkey with this id (not_found)',
      409: NO_PASSWORD,
    },
  });
  app.delete(
    '/passkeys/:id',
    { schema: { params: passkeyParamsSchema, body: removePasskeyRequestSchema, response: { 200: passkeyRemovedSchema } }, config: remove },
    async (request) => {
      // Counted before scrypt, as a password change is: guesses sent at once cannot all pass.
      await countChange(request.user.id);
      await passkeys.remove(request.user, request.params.id, request.body.password);
      return { ok: true as const };
    },
  );
}
