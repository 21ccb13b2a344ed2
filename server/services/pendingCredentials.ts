import type { Db } from '../db';

/** How many of each pending single-use credential a recovery event voided (for its audit entry). */
export interface VoidedCredentials {
  emailChanges: number;
  passwordResets: number;
  emailVerifications: number;
  handOffCodes: number;
}

const count = (result: { numDeletedRows?: bigint; numUpdatedRows?: bigint }) => Number(result.numDeletedRows ?? result.numUpdatedRows ?? 0);

/**
 * Voids, in the caller's transaction, every single-use credential of the account still waiting to
 * be used (issue 36, decision 003's recovery table): e-mail change links, password reset links,
 * e-mail verification links for its Epic account, plugin hand-off codes, and what a sign-in flow
 * of it would still hand over. A password reset, a password change, "sign out everywhere" (own or
 * staff's), a suspension and a deletion call it: whoever took the account loses what they asked for.
 */
export async function voidPendingCredentials(trx: Db, userId: string): Promise<VoidedCredentials> {
  const emailChanges = await trx.deleteFrom('email_changes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  const passwordResets = await trx.deleteFrom('password_reset_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  // Password sign-ins waiting for their second factor (issue 40): whoever typed the password starts over.
  await trx.deleteFrom('second_factor_sign_ins').where('user_id', '=', userId).execute();
  const handOffCodes = await trx
    .updateTable('plugin_hand_off_codes')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  // A browser signed in as the user would hand the plugin a new code from its flow: not any more.
  await trx
    .updateTable('sign_in_flows')
    .set({ plugin_redirect_uri: null, plugin_state: null, plugin_code_challenge: null })
    .where('user_id', '=', userId)
    .where('plugin_redirect_uri', 'is not', null)
    .execute();

  // Verification links belong to sign-in flows: the user's own, any other browser's linking an
  // e-mail to the user's Epic account (opening it would sign that browser in as the user), and any
  // linking another Epic account to the user's address (refused while the account holds it, it
  // would make an account of that address once a deletion frees it).
  const user = await trx.selectFrom('users').select(['epic_account_id', 'email']).where('id', '=', userId).executeTakeFirst();
  const epicAccountId = user?.epic_account_id ?? null;
  const email = user?.email ?? null;
  const ownFlows = trx.selectFrom('sign_in_flows').select('id').where('user_id', '=', userId);
  const verifications = await trx
    .deleteFrom('email_verifications')
    .where((eb) =>
      eb.or([
        eb('flow_id', 'in', ownFlows),
        ...(epicAccountId === null ? [] : [eb('epic_account_id', '=', epicAccountId)]),
        ...(email === null ? [] : [eb('email', '=', email)]),
      ]),
    )
    .execute();
  if (epicAccountId !== null) {
    // Such a browser could also finish its linking without a link, once the address is verified.
    await trx
      .updateTable('sign_in_flows')
      .set({ epic_account_id: null, epic_display_name: null, link_email: null })
      .where('epic_account_id', '=', epicAccountId)
      .execute();
  }

  return {
    emailChanges: emailChanges.reduce((n, r) => n + count(r), 0),
    passwordResets: passwordResets.reduce((n, r) => n + count(r), 0),
    emailVerifications: verifications.reduce((n, r) => n + count(r), 0),
    handOffCodes: count(handOffCodes),
  };
}
