import { z } from 'zod';
import { staffRoleSchema } from './staffRoles';

/** An e-mail that already has an account: registration, Epic linking and the verification link. */
export const ACCOUNT_EXISTS_MESSAGE = 'An account with this email already exists.';

/** The signed-in user as `GET /api/user` returns it (product §3 User, without the license token). */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  status: z.string(),
  isAdmin: z.boolean(),
  /** What the console lets them do (contract/staffRoles.ts); null for anyone who is not an admin. */
  staffRole: staffRoleSchema.nullable(),
  /**
   * True while the account must set its own password in place of a one-time one (issue 27); absent
   * otherwise. Until then the portal shows only that form, and the API answers 403
   * `password_change_required` (contract/accountPassword.ts).
   */
  passwordChangeRequired: z.literal(true).optional(),
  /**
   * True while the console refuses this member of staff until they set up a second factor (issue
   * 40, 403 `second_factor_required`); absent otherwise. The portal shows the setup at /admin.
   */
  secondFactorSetupRequired: z.literal(true).optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
