/**
 * TOTP (RFC 6238) over HOTP (RFC 4226), with node:crypto only: what an authenticator app computes
 * from the secret it scanned. Pure functions; the service (secondFactor/index.ts) stores the
 * secret and the last step used, so a code is accepted once.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** The parameters every authenticator app assumes when the otpauth URI names none but these. */
export const TOTP = { digits: 6, stepSeconds: 30, secretBytes: 20, algorithm: 'SHA1', window: 1 } as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how an otpauth URI carries the secret. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base32 as an app would: case, spaces and padding do not matter; null for anything else. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) return null;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation for SHA-1), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(TOTP.secretBytes));
}

/** The time step of `timeMs`: 30-second steps since the Unix epoch. */
export function totpStep(timeMs: number, stepSeconds: number = TOTP.stepSeconds): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

/** HOTP (RFC 4226 §5.3): the `digits`-digit code of `key` at `counter`, with HMAC-SHA1. */
export function hotp(key: Uint8Array, counter: number, digits: number = TOTP.digits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The TOTP code of a base32 secret at `timeMs` (RFC 6238 §4.2). */
export function totpCode(secret: string, timeMs: number, digits: number = TOTP.digits): string {
  const key = base32Decode(secret);
  if (!key) throw new Error('not a base32 secret');
  return hotp(key, totpStep(timeMs), digits);
}

/**
 * The step whose code `code` is, among the current one and `window` steps either side (clocks
 * drift, and a code typed at a step's end arrives in the next); null when none. Every step of the
 * window is computed, so the time taken does not tell which matched.
 */
export function matchTotp(
  secret: string,
  code: string,
  timeMs: number,
  window: number = TOTP.window,
  digits: number = TOTP.digits,
): number | null {
  const key = base32Decode(secret);
  if (!key || !new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const now = totpStep(timeMs);
  let found: number | null = null;
  for (let step = now - window; step <= now + window; step++) {
    if (hotp(key, step, digits) === code && found === null) found = step;
  }
  return found;
}

/** The otpauth URI an authenticator app scans (Key Uri Format): issuer and label name the account. */
export function otpauthUri(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: TOTP.algorithm,
    digits: String(TOTP.digits),
    period: String(TOTP.stepSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
