import { z } from 'zod';
import { LICENSE_PRODUCTS, licenseAttachmentName, licenseFileSchema, licensePublicKeySchema } from '../../../contract/license';
import { ERROR_CODES } from '../../../contract/errors';
import { forbidden, notFound } from '../../errors';
import { LICENSE_RATE_LIMITS } from '../../services/rateLimiter';
import { noteInstallUse } from '../../http/pluginInstall';
import { enforceLimits } from '../../http/rateLimit';
import { bearerToken, licenseTokenRefusal } from '../../http/sessionCookie';
import { actorOf } from '../../http/adminTarget';
import type { App, RouteContext } from '../../http/types';
import { singleLine } from '../../../contract/text';
import { BEARER, SUSPENDED } from '../../http/apiDoc';
import { access } from '../../http/endpointAccess';

const paramsSchema = z.object({
  product: z.string().check(singleLine('product')).max(100),
  // Longer ids never get here: Fastify answers 414 above 100 characters (maxParamLength).
  id: z.string().check(singleLine('id')).min(1).max(100),
});

const querySchema = z.object({ download: z.enum(['true', 'false'], { error: 'download must be true or false' }).optional() });

const isLicenseProduct = (product: string): boolean => (LICENSE_PRODUCTS as readonly string[]).includes(product);

/** Signed license files (product §7 `GET /api/{product}/{id}/license`) and the key that verifies them. */
export async function licenseRoutes(app: App, { config, services }: RouteContext) {
  const { licenses } = services;

  // Said once per start, never with the key itself.
  const { source, file } = licenses.keyOrigin;
  if (source === 'generated') app.log.info({ file }, 'generated the license signing key');
  if (source !== 'config' && config.env === 'production') {
    app.log.warn(
      { file },
      'LICENSE_SIGNING_KEY is not set: license files are signed with the key file in DATA_DIR. Back it up; servers that do not share it sign with different keys (see docs/license-file.md)',
    );
  }

  const publicKey = access.public('anyone may verify a license file', { tag: 'Licenses' });
  app.get('/license/public-key', { schema: { response: { 200: licensePublicKeySchema } }, config: publicKey }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return licenses.publicKey();
  });

  // The plugin's own copy: it holds the license token (from the sign-in hand-off), not a session.
  const pluginCopy = access.public('the plugin: its license token (Bearer)', {
    tag: 'Licenses',
    security: BEARER,
    limited: true,
    errors: { 401: 'The token was replaced by an admin: sign in again from the plugin (license_revoked)', 403: SUSPENDED },
  });
  app.get('/license', { schema: { response: { 200: licenseFileSchema } }, config: pluginCopy }, async (request, reply) => {
    const token = bearerToken(request);
    await enforceLimits(services, 'Too many requests. Please slow down.', [[`license:ip:${request.ip}`, LICENSE_RATE_LIMITS.perIp]]);
    const user = token ? await services.users.findByLicenseToken(token) : undefined;
    if (!user) throw await licenseTokenRefusal(services, token, 'A valid license token is required (Authorization: Bearer …)');
    await noteInstallUse(request, services, user.id);
    reply.header('cache-control', 'no-store');
    return reply.type('application/json; charset=utf-8').send(await licenses.licenseFile(user.id));
  });

  app.get(
    '/:product/:id/license',
    {
      schema: { params: paramsSchema, querystring: querySchema, response: { 200: licenseFileSchema } },
      config: access.user({
        tag: 'Licenses',
        errors: { 403: "Another user's license: admins only (forbidden)", 404: 'Unknown product or user (not_found)' },
      }),
      // An unknown product is a 404 whoever asks, signed in or not; then the session (`requireUser`, routes/access.ts).
      preHandler: async (request) => {
        if (!isLicenseProduct(request.params.product)) throw notFound('Unknown product');
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { user } = request;
      if (user.is_admin !== 1 && user.id !== id) throw forbidden(ERROR_CODES.forbidden, 'Admins only');
      // Another user's license carries their token: admins only, audited (issue 36).
      const license = user.id === id ? await licenses.licenseFile(id) : await licenses.downloadByStaff(actorOf(user), id);
      // The file carries the license token: no cache keeps a copy.
      reply.header('cache-control', 'no-store');
      if (request.query.download === 'true') {
        reply.header('content-disposition', `attachment; filename="${licenseAttachmentName(id)}"`);
      }
      return reply.type('application/json; charset=utf-8').send(license);
    },
  );
}
