/** TOTP (RFC 6238): the SHA-1 test vectors of Appendix B, and the verification window's edges. */
import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  totpCode,
  totpStep,
} from '../../server/services/secondFactor/totp';

/** RFC 6238's SHA-1 seed: the ASCII of "12345678901234567890". */
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890', 'ascii'));

describe('TOTP', () => {
  // RFC 6238 Appendix B, the SHA1 column (8 digits there).
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
  });

  // RFC 4226 Appendix D: HOTP with the same key, 6 digits.
  it.each([
    [0, '755224'],
    [1, '287082'],
    [9, '520489'],
  ])('HOTP at counter %i is %s', (counter, code) => {
    expect(hotp(Buffer.from('12345678901234567890'), counter)).toBe(code);
  });

  it('base32 round-trips, ignoring case, spaces and padding; refuses other characters', () => {
    const bytes = Buffer.from('12345678901234567890');
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(RFC_SECRET.toLowerCase().replace(/(.{4})/g, '$1 '))).toEqual(bytes);
    expect(base32Decode('GEZDGNBV====')).toEqual(Buffer.from('12345'));
    expect(base32Decode('GEZ1')).toBeNull();
  });

  it('makes 160-bit secrets, each new', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(secret);
  });

  const now = 1_700_000_010_000; // 10 s into its step
  const step = totpStep(now);
  const codeAt = (s: number) => hotp(base32Decode(RFC_SECRET)!, s);
  it.each([
    ['the current step', 0, step],
    ['one step back (a slow clock, a code typed at the end of its step)', -1, step - 1],
    ['one step ahead (a fast clock)', 1, step + 1],
    ['two steps back', -2, null],
    ['two steps ahead', 2, null],
  ])('the window accepts %s?', (_what, offset, expected) => {
    expect(matchTotp(RFC_SECRET, codeAt(step + offset), now)).toBe(expected);
  });

  it.each([
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['spaces', '123 456'],
    ['empty', ''],
  ])('refuses a code of %s', (_what, code) => {
    expect(matchTotp(RFC_SECRET, code, now)).toBeNull();
  });

  it('names the issuer and account in the otpauth URI', () => {
    expect(otpauthUri('ABC', 'Sage', 'ann@example.com')).toBe(
      'otpauth://totp/Sage:ann%40example.com?secret=ABC&issuer=Sage&algorithm=SHA1&digits=6&period=30',
    );
  });
});
