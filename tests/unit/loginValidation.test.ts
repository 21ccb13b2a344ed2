import { describe, expect, it } from 'vitest';
import {
  modeFromSearch,
  validateLoginForm,
  validatePasswordReset,
  type LoginFormValues,
  type LoginMode,
} from '../../src/portal/login/validation';

const filled: LoginFormValues = { email: 'ada@example.com', password: 'secret-pass', passwordConfirm: '' };

describe('validateLoginForm (§5)', () => {
  it.each<[string, LoginMode, LoginFormValues, string | null]>([
    ['sign-in with e-mail and password', 'signin', filled, null],
    ['sign-in ignores the confirmation', 'signin', { ...filled, passwordConfirm: 'different' }, null],
    ['sign-in without e-mail', 'signin', { ...filled, email: '' }, 'Email is required'],
    ['sign-in with a blank e-mail', 'signin', { ...filled, email: '   ' }, 'Email is required'],
    ['sign-in without password', 'signin', { ...filled, password: '' }, 'Password is required'],
    ['register with matching passwords', 'register', { ...filled, passwordConfirm: 'secret-pass' }, null],
    ['register with different passwords', 'register', { ...filled, passwordConfirm: 'secret-pas' }, 'Passwords do not match'],
    ['register without confirmation', 'register', filled, 'Passwords do not match'],
    ['register without e-mail', 'register', { ...filled, email: '' }, 'Email is required'],
    ['register without password', 'register', { email: 'a@b.c', password: '', passwordConfirm: '' }, 'Password is required'],
    ['no length rule for short passwords', 'register', { email: 'a@b.c', password: 'x', passwordConfirm: 'x' }, null],
    ['no format rule beyond the input type', 'signin', { ...filled, email: 'not-an-email' }, null],
  ])('%s', (_name, mode, values, expected) => {
    expect(validateLoginForm(mode, values)).toBe(expected);
  });
});

describe('validatePasswordReset (§5)', () => {
  it.each<[string, string, string, string | null]>([
    ['matching passwords', 'new-secret', 'new-secret', null],
    ['different passwords', 'new-secret', 'new-secreT', 'Passwords do not match'],
    ['missing new password', '', 'new-secret', 'New password is required'],
    ['missing confirmation', 'new-secret', '', 'Please confirm your new password'],
  ])('%s', (_name, password, confirm, expected) => {
    expect(validatePasswordReset(password, confirm)).toBe(expected);
  });
});

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
