import Fastify, { type FastifyLoggerOptions, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import type { Config } from './config';

/** Query parameters that carry secrets: reset tokens, and OAuth codes, verifiers and states. */
const SECRET_PARAMS = new Set(['token', 'code', 'code_verifier', 'state']);

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The URL with the values of secret query parameters replaced by `[redacted]`, for logs.
 * Names are compared decoded and case-insensitively, so `tok%65n=` or `TOKEN=` are masked too.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const hashStart = url.indexOf('#', queryStart);
  const queryEnd = hashStart === -1 ? url.length : hashStart;
  const query = url
    .slice(queryStart + 1, queryEnd)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return part;
      const name = part.slice(0, eq);
      return SECRET_PARAMS.has(decodeName(name).toLowerCase()) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}${url.slice(queryEnd)}`;
}

/** What a request contributes to a log line; the URL has its secrets masked. */
export function serializeRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'host' | 'ip'>) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** Fastify's logger options: pino at `level`, to stdout or `stream`, without secrets. */
export function loggerOptions(level: string, stream?: { write(msg: string): void }): FastifyLoggerOptions & { redact: string[] } {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: { req: serializeRequest },
    // The req serializer leaves headers out; this is the net should one be logged by hand.
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  };
}

/** A request's pretty line reads as what was asked and how it was answered: `GET /api/user 200 3 ms`. */
export function prettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const req = log.req as ReturnType<typeof serializeRequest> | undefined;
  const message = typeof log[messageKey] === 'string' ? log[messageKey] : '';
  if (!req) return message;
  const res = log.res as { statusCode?: number } | undefined;
  const answered = `${req.method} ${req.url} ${res?.statusCode ?? '-'} ${Math.round(Number(log.responseTime ?? 0))} ms`;
  return message === 'request completed' ? answered : `${answered} (${message})`;
}

/**
 * Where the log goes: for a person at a terminal in development, one readable coloured line per
 * entry (pino-pretty, loaded only then); otherwise (a pipe, a file, a supervisor, and always in
 * production) one JSON object per line, written asynchronously: under load pino batches lines
 * instead of one write per line, and what is still pending is flushed when the process exits.
 */
export async function logDestination(
  env: Config['env'],
  stdout: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout,
): Promise<DestinationStream> {
  if (env === 'production' || !stdout.isTTY) return pino.destination({ dest: 1, sync: false });
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    destination: stdout,
    colorize: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // A request's fields are in its message, and a terminal shows one process's lines in order.
    ignore: 'pid,hostname,reqId,req,res,responseTime',
    messageFormat: prettyMessage,
    sync: true,
  });
}

/**
 * One structured line per request, written when it is answered: what was asked (method, redacted
 * URL, host, client address), the status and the response time. Fastify's default writes a second
 * line when the request arrives; at the default level that doubled the logging cost of every
 * request (issue 12). Every request is logged: no sampling.
 */
export class OneLinePerRequest extends Fastify.LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
