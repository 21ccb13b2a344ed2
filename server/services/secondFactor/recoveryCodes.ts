import { randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../contract/secondFactor';
import { hashToken } from '../tokens';
import { base32Encode } from './totp';

/**
 * A recovery code: 10 random bytes (80 bits) as 16 base32 characters in groups of four,
 * `abcd-efgh-ijkl-mnop`. 80 bits is why an unsalted SHA-256 stores it safely: nobody can try
 * 2^80 guesses against a leaked hash, as they could against a password (decision 046).
 */
export function newRecoveryCode(): string {
  return base32Encode(randomBytes(10))
    .toLowerCase()
    .replace(/(.{4})(?!$)/g, '$1-');
}

/** Ten new codes, shown once. */
export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);

/** What is hashed: the code as typed, without case, spaces or dashes. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');

export const recoveryCodeHash = (code: string): string => hashToken(normalizeRecoveryCode(code));
