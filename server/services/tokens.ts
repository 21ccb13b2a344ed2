import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh opaque token: 32 random bytes (256 bits), URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What we store instead of a token, so a database leak does not hand out sessions or resets. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Compares two secrets in constant time, whatever their lengths. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
