// zod/mini, not zod: the sign-in page validates its form with these schemas, and zod/mini's
// functions tree-shake to a few kB where zod's methods bring all of zod into /login (decision 016).
// The server reads them as zod schemas like any other (both are zod/v4/core types).
import * as z from 'zod/mini';
import { singleLine } from './text';

/** Shortest password accepted for a new password (register, reset). Sign-in never checks it. */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password accepted anywhere: keeps hashing cost bounded. */
export const MAX_PASSWORD_LENGTH = 256;

/** A string field: "<label> is required" when it is missing, "<label> must be a string" otherwise. */
const text = (label: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a string`) });

/** Sign-in takes any stored address: accounts older than today's format rule must still get in. */
const anyEmail = text('Email').check(
  singleLine('Email'),
  z.trim(),
  z.minLength(1, 'Email is required'),
  z.maxLength(254, 'Email is too long'),
);

/** New addresses (registration, reset requests) must be well-formed. */
const email = z.pipe(anyEmail, z.email({ error: 'Invalid email address' }));

const newPassword = text('Password').check(
  z.minLength(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`),
  z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
);

export const loginRequestSchema = z.object({
  email: anyEmail,
  password: text('Password').check(
    z.minLength(1, 'Password is required'),
    z.maxLength(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`),
  ),
  rememberMe: z._default(z.optional(z.boolean({ error: 'Remember me must be true or false' })), false),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({ email, password: newPassword });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const forgotPasswordRequestSchema = z.object({ email });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({
  token: text('Reset token').check(
    singleLine('Reset token'),
    z.minLength(1, 'Reset token is required'),
    z.maxLength(200, 'Reset token is too long'),
  ),
  newPassword,
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** Answer of login, register, forgot-password and reset-password on success. */
export const okResponseSchema = z.object({ ok: z.literal(true), message: z.string() });
