import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from 'fastify';
import { AppError } from './errors';

/**
 * Sent with every response. Styles allow 'unsafe-inline' because MUI (Emotion) injects its
 * styles at run time; scripts come only from our own origin.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  // Browser features the product never uses, denied to its pages and anything they embed.
  'permissions-policy': [
    'accelerometer',
    'browsing-topics',
    'camera',
    'clipboard-read',
    'clipboard-write',
    'display-capture',
    'fullscreen',
    'geolocation',
    'gyroscope',
    'hid',
    'idle-detection',
    'magnetometer',
    'microphone',
    'midi',
    'payment',
    'screen-wake-lock',
    'serial',
    'usb',
    'xr-spatial-tracking',
  ]
    .map((feature) => `${feature}=()`)
    .join(', '),
};

/** HSTS of an https deployment: a year, this host and its subdomains (decision 003). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/** The headers of every answer: SECURITY_HEADERS, and HSTS when PUBLIC_URL is https (never on http). */
export function securityHeaders(publicUrl: string): Record<string, string> {
  return publicUrl.startsWith('https:')
    ? { ...SECURITY_HEADERS, 'strict-transport-security': STRICT_TRANSPORT_SECURITY }
    : SECURITY_HEADERS;
}

// The hooks below run on every request: callback-style, so no promise is made per request for them.

export function addSecurityHeaders(headers: Record<string, string>) {
  return (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    reply.headers(headers);
    done();
  };
}

/**
 * No cache keeps an answer that depends on who asked (`dependsOnCaller`: the request's session or
 * bearer token was looked up, or it sets a cookie), whatever its route said. Answers the same for everyone keep
 * their route's own header or none (a JSON answer without validators is not cached anyway).
 */
export function noStoreWhenPersonal(dependsOnCaller: (request: FastifyRequest) => boolean): onSendHookHandler {
  return (request, reply, payload, done) => {
    if (dependsOnCaller(request) || reply.hasHeader('set-cookie')) reply.header('cache-control', 'no-store');
    done(null, payload);
  };
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Origins of the Vite dev server (npm run dev), which proxies /api to this server. */
export const DEV_SERVER_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/**
 * Refuses state-changing requests sent by another site's page. Bodies are JSON only (the
 * text/plain parser is removed), and a browser's Origin header must be ours when present.
 * In production "ours" is PUBLIC_URL alone: accepting whatever Host says would let a
 * DNS-rebound page pass. In development the request's own host and the Vite dev server pass too.
 *
 * The check looks at the method alone, never the path: the router decodes `/%61pi/logout` to
 * `/api/logout`, so any test of the raw URL can be spelled around. No page takes a cross-site write.
 */
export function checkOrigin(publicUrl: string, production: boolean) {
  const allowed = new Set([new URL(publicUrl).origin, ...(production ? [] : DEV_SERVER_ORIGINS)]);
  const isAllowed = (request: FastifyRequest): boolean => {
    if (!STATE_CHANGING.has(request.method)) return true;
    const origin = request.headers.origin;
    if (!origin || allowed.has(origin)) return true;
    return !production && origin === `${request.protocol}://${request.host}`;
  };
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (isAllowed(request)) done();
    else done(new AppError(403, 'cross_origin', 'Cross-site requests are not allowed'));
  };
}
