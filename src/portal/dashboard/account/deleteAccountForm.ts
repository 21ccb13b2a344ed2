import { ACCOUNT_DATA_MESSAGES, confirmsUsername, deleteAccountRequestSchema } from '../../../../contract/accountData';

/** The Delete account dialog's fields. */
export interface DeleteAccountFormValues {
  confirm: string;
  password?: string;
}

/**
 * The request's own rules (contract/accountData.ts), with the two the server checks against the
 * account: the username typed as shown, and a password when nothing else stands for it (no sign-in
 * in this browser in the last 10 minutes: decision 034).
 */
export const deleteAccountForm = (username: string, passwordNeeded: boolean) =>
  deleteAccountRequestSchema.extend({
    confirm: deleteAccountRequestSchema.shape.confirm.refine(
      (typed) => confirmsUsername(typed, username),
      ACCOUNT_DATA_MESSAGES.confirmationMismatch,
    ),
    password: passwordNeeded
      ? deleteAccountRequestSchema.shape.password.unwrap().min(1, ACCOUNT_DATA_MESSAGES.passwordRequired)
      : deleteAccountRequestSchema.shape.password,
  });
