import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, RateLimitedError } from '../errors';

export type PageFailure = 'rate_limited' | 'server_error';

/**
 * Route error handler for the endpoints a person's browser navigates to (Epic sign-in, the mail's
 * link): any failure becomes the page `pageFor` names, never a JSON body on a blank tab.
 */
export function failurePage(pageFor: (failure: PageFailure, request: FastifyRequest) => string) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof RateLimitedError) return reply.redirect(pageFor('rate_limited', request));
    if (err instanceof AppError && err.statusCode < 500) request.log.warn({ err }, 'sign-in step refused');
    else request.log.error({ err }, 'sign-in step failed');
    return reply.redirect(pageFor('server_error', request));
  };
}
