import { z } from 'zod';
import { loginRequestSchema } from './auth';
import { emailRequestSchema } from './epic';

/**
 * Linking an Epic Games account to an existing Sage account (issue 40, decision 047): from the
 * Account section, and from the Epic link page when the plugin's (or the web's) Epic sign-in finds
 * no Sage user but the person has one. The account is always proved first: its session and
 * password, its password, or a link mailed to its address.
 */

/** How long an e-mailed link to link Epic (or, with LEGACY_LOGIN=off, to get in) stays usable. */
export const EPIC_LINK_TOKEN_TTL_MS = 30 * 60_000;

const password = loginRequestSchema.shape.password;

/** `POST /api/epic/link-signed-in` and `DELETE /api/account/epic`: the signed-in account's password. */
export const passwordCheckSchema = z.object({ password });
export type PasswordCheck = z.input<typeof passwordCheckSchema>;

/** `POST /api/epic/link-sign-in`: the existing account's e-mail and password. */
export const linkSignInRequestSchema = z.object({ email: emailRequestSchema.shape.email, password });
export type LinkSignInRequest = z.input<typeof linkSignInRequestSchema>;

/** `POST /api/epic/link-by-email` and `POST /api/login/link-request`. */
export const linkByEmailRequestSchema = emailRequestSchema;

/** `GET /api/auth/link-email?token=…`: the mailed link. */
export const linkEmailQuerySchema = z.object({ token: z.string().min(1).max(200) });

/** The answer of the steps that link and sign in: where the browser goes next. */
export const linkedResponseSchema = z.object({ ok: z.literal(true), message: z.string(), next: z.string() });
export type LinkedResponse = z.infer<typeof linkedResponseSchema>;

export const neutralResponseSchema = z.object({ ok: z.literal(true), message: z.string() });

/** `GET /api/account/epic`: the Account section's Sign-in methods panel. */
export const epicLinkStatusSchema = z.object({
  linked: z.boolean(),
  displayName: z.string().nullable(),
  hasPassword: z.boolean(),
  /** Unlinking would leave a way to sign in (a password the switch still takes). */
  canUnlink: z.boolean(),
});
export type EpicLinkStatus = z.infer<typeof epicLinkStatusSchema>;

export { EPIC_LINKING_TEXT } from './epicLinkingText';
