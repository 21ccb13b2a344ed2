import { z } from 'zod';
import { ACCOUNT_EXISTS_MESSAGE } from './user';

/** Resend is refused for this long after a send, by the page and by the server (product §9). */
export const RESEND_COOLDOWN_MS = 60_000;
/** A verification link works this long. */
export const VERIFICATION_TTL_MS = 15 * 60_000;
/** The server's message for an expired code (product §8), for people: screens branch on the code below. */
export const VERIFICATION_EXPIRED_MESSAGE = 'Verification code has expired';

/** The `error` codes of the verification calls that the waiting page branches on (§4). */
export const VERIFICATION_ERROR_CODES = {
  /** 410 from check-verification-status: the link expired unopened; a resend sends a new one. */
  expired: 'verification_expired',
} as const;

/**
 * What the mail's link may report on `/email-verification-completed?success=…&message=…`. The page
 * shows only these, so a crafted link cannot put someone else's words on our page.
 */
export const VERIFY_LINK_MESSAGES = {
  verified: 'Your email has been verified. Return to the sign-in window to continue.',
  invalid: 'This verification link is invalid or has already been used.',
  expired: VERIFICATION_EXPIRED_MESSAGE,
  emailTaken: ACCOUNT_EXISTS_MESSAGE,
  epicAccountLinked: 'Your Epic account is already linked to another email. Sign in with Epic again to use it.',
  tooMany: 'Too many verification attempts. Please try again later.',
  failed: 'The link could not be checked right now. Please open it again in a moment.',
} as const;

/** `POST /api/email/send-verification` and `/resend-verification` (product §7: ok, message, code). */
export const sendVerificationResponseSchema = z.object({
  ok: z.literal(true),
  message: z.string(),
  /** `sent`: a new mail left; `already_sent`: one left moments ago; `already_verified`: nothing to do. */
  code: z.enum(['sent', 'already_sent', 'already_verified']),
});
export type SendVerificationResponse = z.infer<typeof sendVerificationResponseSchema>;

/** `POST /api/email/check-verification-status`. An expired code answers 410 `verification_expired`. */
export const verificationStatusSchema = z.object({ ok: z.literal(true), verified: z.boolean(), message: z.string() });
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;
