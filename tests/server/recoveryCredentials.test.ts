import { describe, expect, it } from 'vitest';
import { emailChangeSignedOutLanding } from '../../contract/accountEmail';
import { LICENSE_REVOKED } from '../../contract/license';
import { ACCOUNT_SUSPENDED } from '../../contract/suspension';
import { RESET_SIGNS_PLUGIN_OUT } from '../../server/services/passwordReset';
import { signedInAdmin, signedInUser } from './adminFlow';
import { completedPage } from './epicFlow';
import { databases, errorBody, PASSWORD, useTestServer } from './harness';
import { accountWithPendingCredentials, CREDENTIALS, NEW_PASSWORD, nextLink, type CredentialKind } from './recoveryFlow';

/** How each credential refuses a suspended account's use (issue 36): the suspension's own words. */
const SUSPENDED_REFUSAL: Record<CredentialKind, string> = {
  email_change: emailChangeSignedOutLanding('account_suspended'),
  password_reset: `403 ${ACCOUNT_SUSPENDED.error}`,
  email_verification: completedPage(false, ACCOUNT_SUSPENDED.message),
  hand_off_code: `403 ${ACCOUNT_SUSPENDED.error}`,
};

describe.each(databases)('pending credentials and recovery on $label', (database) => {
  const server = useTestServer(database);

  const tokenOf = async (id: string) =>
    (await server().db.selectFrom('users').select('license_token').where('id', '=', id).executeTakeFirstOrThrow()).license_token;
  const licenseWith = (token: string) =>
    server()
      .client({ authorization: `Bearer ${token}` })
      .get('/api/license');

  // A suspension voids them all; a credential it did not see (a race: suspended between the
  // credential's read and its use) is refused at use all the same. The row is written directly here.
  it('a suspended account’s pending credentials are each refused when used, and change nothing', async () => {
    const account = await accountWithPendingCredentials(server());
    await server().db.updateTable('users').set({ status: 'Suspended', suspended_at: Date.now() }).where('id', '=', account.id).execute();
    for (const kind of CREDENTIALS) {
      const credential = account.credentials[kind];
      expect(await credential.use(), kind).toBe(SUSPENDED_REFUSAL[kind]);
      await credential.changedNothing();
    }
  });

  it('forgot-password sends no link to a suspended account, and answers as for any address', async () => {
    const admin = await signedInAdmin(server());
    const suspended = await signedInUser(server(), 'suspended');
    const active = await signedInUser(server(), 'active');
    expect((await admin.client.post(`/api/admin/users/${suspended.id}/suspend`, { reason: 'Abuse' })).statusCode).toBe(200);

    const forSuspended = await server().client().post('/api/forgot-password', { email: suspended.email });
    const forActive = await server().client().post('/api/forgot-password', { email: active.email });
    expect(forSuspended.statusCode).toBe(200);
    expect(forSuspended.body).toBe(forActive.body);

    // The active account's mail was sent after the suspended one's request was handled.
    await server().smtp.waitForMail(active.email);
    expect(
      server()
        .smtp.mailsTo(suspended.email)
        .map((mail) => mail.subject),
    ).not.toContain('Reset your Sage password');
    const tokens = await server().db.selectFrom('password_reset_tokens').select('user_id').where('user_id', '=', suspended.id).execute();
    expect(tokens).toEqual([]);
  });

  it('a password reset signs the plugin out: the mail says so, and the old license token is told to sign in again', async () => {
    const user = await signedInUser(server(), 'reset');
    const old = await tokenOf(user.id);
    expect((await licenseWith(old)).statusCode).toBe(200);

    const link = await nextLink(server(), user.email, '/reset-password?token=', async () => {
      await server().client().post('/api/forgot-password', { email: user.email });
    });
    expect(server().smtp.mailsTo(user.email).at(-1)?.text).toContain(RESET_SIGNS_PLUGIN_OUT);
    const token = new URL(link).searchParams.get('token');
    expect((await server().client().post('/api/reset-password', { token, newPassword: NEW_PASSWORD })).statusCode).toBe(200);

    const refused = await licenseWith(old);
    expect(refused.statusCode).toBe(401);
    expect(errorBody(refused)).toEqual(LICENSE_REVOKED);
    const renewed = await tokenOf(user.id);
    expect(renewed).not.toBe(old);
    expect((await licenseWith(renewed)).statusCode).toBe(200);
  });

  it.each([
    ['checked (the default, left out)', {}, true],
    ['checked', { signOutPlugin: true }, true],
    ['unchecked', { signOutPlugin: false }, false],
  ])('a password change with the plugin box %s reissues the license accordingly', async (_name, box, reissued) => {
    const user = await signedInUser(server(), 'change');
    const old = await tokenOf(user.id);
    const changed = await user.client.post('/api/account/password', { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, ...box });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ message: string }>().message.includes('Sign the Sage plugin in again.')).toBe(reissued);
    expect((await tokenOf(user.id)) !== old).toBe(reissued);
    expect((await licenseWith(old)).statusCode).toBe(reissued ? 401 : 200);
  });
});
