import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt recommendation (N = 2^17, r = 8, p = 1). */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: cost.N,
    r: cost.r,
    p: cost.p,
    // scrypt needs 128 * N * r bytes; leave head-room over Node's 32 MiB default.
    maxmem: 256 * cost.N * cost.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes a password as `scrypt$N$r$p$salt$hash` (base64), so the cost can rise later. */
export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Bounds on the cost read back from a stored hash, so a damaged row cannot exhaust memory. */
const MAX_STORED_N = 2 ** 20;
const MAX_STORED_R = 32;
const MAX_STORED_P = 16;

function storedCost(n: string, r: string, p: string): ScryptCost | null {
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const isPowerOfTwo = Number.isInteger(cost.N) && cost.N > 1 && (cost.N & (cost.N - 1)) === 0;
  if (!isPowerOfTwo || cost.N > MAX_STORED_N) return null;
  if (!Number.isInteger(cost.r) || cost.r < 1 || cost.r > MAX_STORED_R) return null;
  if (!Number.isInteger(cost.p) || cost.p < 1 || cost.p > MAX_STORED_P) return null;
  return cost;
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash || rest.length > 0) return false;
  const cost = storedCost(n, r, p);
  const expected = Buffer.from(hash, 'base64');
  if (!cost || expected.length !== KEY_LENGTH) return false;
  let key: Buffer;
  try {
    key = await derive(password, Buffer.from(salt, 'base64'), cost);
  } catch {
    return false;
  }
  return timingSafeEqual(key, expected);
}

/**
 * Spends the same time as a real check, for sign-ins of unknown e-mails, so response time
 * does not reveal which addresses have accounts.
 */
export async function burnPasswordCheck(password: string, cost = DEFAULT_SCRYPT_COST): Promise<void> {
  await derive(password, randomBytes(16), cost);
}
