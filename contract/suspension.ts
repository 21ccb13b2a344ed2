import { z } from 'zod';
import { singleLine } from './text';

/**
 * Suspension (issue 28): an account's status is `Active` or `Suspended`, changed only by the
 * console's Suspend (with a reason) and Reinstate, never by the user edit (decision 029).
 */
export const USER_STATUSES = ['Active', 'Suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const SUSPENSION_REASON_MAX = 500;
export const SUSPENSION_REASON_REQUIRED = 'A reason is required';

/** `POST /api/admin/users/{id}/suspend`: the reason, told to the user and kept in the audit log. */
export const suspendRequestSchema = z.object({
  reason: z
    .string({ error: SUSPENSION_REASON_REQUIRED })
    .check(singleLine('Reason'))
    .trim()
    .min(1, SUSPENSION_REASON_REQUIRED)
    .max(SUSPENSION_REASON_MAX, `The reason must be at most ${SUSPENSION_REASON_MAX} characters`),
});
export type SuspendRequest = z.infer<typeof suspendRequestSchema>;

/** A suspension as the console shows it: since when, and why. */
export const suspensionSchema = z.object({ suspendedAt: z.string(), reason: z.string() });
export type Suspension = z.infer<typeof suspensionSchema>;

/**
 * The refusal every sign-in, session and license token of a suspended account gets: 403, the same
 * words by e-mail, by Epic, from the plugin and from the APIs.
 */
export const ACCOUNT_SUSPENDED = {
  error: 'account_suspended',
  message: 'This account is suspended. Please contact support.',
} as const;

export const isSuspended = (status: string): boolean => status === 'Suspended';

/** The console's refusals, in its words. */
export const SUSPENSION_MESSAGES = {
  selfSuspension: 'You cannot suspend your own account',
  alreadySuspended: 'This account is already suspended',
  notSuspended: 'This account is not suspended',
} as const;
