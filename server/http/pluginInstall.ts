import type { FastifyRequest } from 'fastify';
import { publicIdSchema } from '../../contract/accountSessions';
import { PLUGIN_INSTALL_HEADER } from '../../contract/epic';
import type { Services } from '../services';

/**
 * The install a plugin's call names in X-Sage-Install (issue 27, docs/plugin-sign-in.md), when it
 * is an id this server could have given. The header is optional and never refuses a call: anything
 * else, sent once or twice, names no install.
 */
export function pluginInstallId(request: FastifyRequest): string | undefined {
  const parsed = publicIdSchema.safeParse(request.headers[PLUGIN_INSTALL_HEADER]);
  return parsed.success ? parsed.data : undefined;
}

/** A license token call of `userId`: the install it names, if it is theirs, was used now. */
export async function noteInstallUse(request: FastifyRequest, services: Services, userId: string): Promise<void> {
  const installId = pluginInstallId(request);
  if (installId) await services.pluginInstalls.touch(userId, installId);
}
