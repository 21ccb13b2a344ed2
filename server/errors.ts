import { ERROR_CODES } from '../contract/errors';

/**
 * An error the client is meant to see: `code` for programs, `message` for people.
 * Services throw it; the error handler in app.ts turns it into `{ error, message }`.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, message: string) => new AppError(400, code, message);
export const unauthorized = (message = 'Authentication required') => new AppError(401, ERROR_CODES.unauthorized, message);
export const forbidden = (code: string, message: string) => new AppError(403, code, message);
/** 404 `not_found`: no such record; the admin console's Find Message branches on the code. */
export const notFound = (message: string) => new AppError(404, ERROR_CODES.notFound, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
/** 429 with the time until the window resets, sent as Retry-After. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(429, 'rate_limited', message);
  }
}
