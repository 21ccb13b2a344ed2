import { describe, expect, it } from 'vitest';
import { modeFromSearch, type LoginMode } from '../../src/portal/login/loginForm';

describe('modeFromSearch', () => {
  it.each<[string | null, LoginMode]>([
    ['register', 'register'],
    ['signin', 'signin'],
    [null, 'signin'],
    ['', 'signin'],
    ['REGISTER', 'signin'],
  ])('mode=%s starts in %s', (value, expected) => {
    expect(modeFromSearch(value)).toBe(expected);
  });
});
