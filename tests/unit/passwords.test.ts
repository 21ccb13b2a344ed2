import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../server/services/passwords';

const CHEAP = { N: 1024, r: 8, p: 1 };

describe('password hashing', () => {
  it('hashes with the default scrypt cost (N = 2^17, r = 8, p = 1) and verifies the password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    // The cost a hash is made with is written into it: scrypt$N$r$p$salt$key.
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
    expect(stored).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('refuses a wrong password', async () => {
    const stored = await hashPassword('the-right-one', CHEAP);
    expect(await verifyPassword('the-wrong-one', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('verifies with the cost recorded in the hash, not the current default', async () => {
    const stored = await hashPassword('cheap-but-valid', CHEAP);
    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('cheap-but-valid', stored)).toBe(true);
  });

  it('salts every hash', async () => {
    const a = await hashPassword('same-password', CHEAP);
    const b = await hashPassword('same-password', CHEAP);
    expect(a).not.toBe(b);
  });

  it('treats the same password in another Unicode normal form as the same', async () => {
    const composed = 'caf\u00e9-password';
    const decomposed = 'cafe\u0301-password';
    const stored = await hashPassword(composed, CHEAP);
    expect(await verifyPassword(decomposed, stored)).toBe(true);
  });

  it('answers false, without throwing, for a malformed stored hash', async () => {
    const good = await hashPassword('password123', CHEAP);
    const [, n, r, p, salt, hash] = good.split('$');
    for (const stored of [
      '',
      'password123',
      'bcrypt$10$abc',
      `argon2id$${n}$${r}$${p}$${salt}$${hash}`,
      `scrypt$${n}$${r}$${p}$${salt}`,
      `scrypt$${n}$${r}$${p}$${salt}$`,
      `scrypt$${n}$${r}$${p}$${salt}$${hash?.slice(0, 10)}`,
      `scrypt$abc$${r}$${p}$${salt}$${hash}`,
      `scrypt$1000$${r}$${p}$${salt}$${hash}`,
      `scrypt$0$${r}$${p}$${salt}$${hash}`,
      `scrypt$${2 ** 40}$${r}$${p}$${salt}$${hash}`,
    ]) {
      await expect(verifyPassword('password123', stored), stored).resolves.toBe(false);
    }
  });

  it('spends a hash on unknown accounts without failing', async () => {
    await expect(burnPasswordCheck('anything', CHEAP)).resolves.toBeUndefined();
  });
});
