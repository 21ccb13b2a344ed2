/**
 * Staff must have a second factor (issue 40, decision 046): with STAFF_SECOND_FACTOR=required, a
 * member of staff signed in by password without one gets 403 `second_factor_required` on the
 * console's API; Epic sign-in counts as one. The support path resets a user's second factor.
 */
import { describe, expect, it } from 'vitest';
import { SECOND_FACTOR_REQUIRED } from '../../contract/secondFactor';
import { signedInAdmin, signedInUser } from './adminFlow';
import { signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { databases, errorBody, PASSWORD, uniqueEmail, useTestServer } from './harness';
import { appCode, enrol } from './secondFactorFlow';

const IDENTITY_CHECK = 'Called the number on file and matched the last invoice amount';

describe.each(databases)('the staff gate on $label', (database) => {
  const server = useTestServer(database, { STAFF_SECOND_FACTOR: 'required' });

  it('refuses a password-signed-in admin without a second factor, until they set one up in Account', async () => {
    const admin = await signedInAdmin(server());
    const refused = await admin.client.get('/api/admin/users');
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual(SECOND_FACTOR_REQUIRED);
    // The Account section stays open: the way out of the refusal.
    expect((await admin.client.get('/api/account/second-factor')).json()).toMatchObject({ requiredForStaff: true });
    const { secret } = await enrol(admin.client);
    expect((await admin.client.get('/api/admin/users')).statusCode).toBe(200);

    // Signed in again by password: the code is asked, then the console opens.
    const browser = server().client();
    expect((await browser.login(admin.email)).json()).toMatchObject({ secondFactorRequired: true });
    expect((await browser.get('/api/admin/users')).statusCode).toBe(401);
    expect((await browser.post('/api/login/second-factor', { code: appCode(secret, 1) })).statusCode).toBe(200);
    expect((await browser.get('/api/admin/users')).statusCode).toBe(200);
  });

  it('lets an Epic-signed-in member of staff through: Epic sign-in is a second factor', async () => {
    const browser = server().client();
    await signUpWithEpic(server(), browser, { displayName: uniqueDisplayName('Staff'), email: uniqueEmail('epic-staff') });
    const me = (await browser.get('/api/user')).json<{ id: string }>();
    await server().db.updateTable('users').set({ is_admin: 1, staff_role: 'support' }).where('id', '=', me.id).execute();
    expect((await browser.get('/api/admin/users')).statusCode).toBe(200);
    // A customer is refused as before ("Admins only"), not asked for a second factor.
    const customer = await signedInUser(server(), 'customer');
    expect(errorBody(await customer.client.get('/api/admin/users')).error).toBe('forbidden');
  });

  it("resets a customer's second factor on the support path: identity check audited, owner mailed", async () => {
    const admin = await signedInAdmin(server());
    await enrol(admin.client);
    const customer = await signedInUser(server(), 'locked-out');
    await enrol(customer.client);

    const noCheck = await admin.client.post(`/api/admin/users/${customer.id}/second-factor/reset`, { identityCheck: '' });
    expect(noCheck.statusCode).toBe(400);
    const reset = await admin.client.post(`/api/admin/users/${customer.id}/second-factor/reset`, { identityCheck: IDENTITY_CHECK });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await customer.client.get('/api/account/second-factor')).json()).toMatchObject({
      totp: { enrolled: false },
      recoveryCodesLeft: 0,
    });
    // The password alone signs the customer in again.
    const browser = server().client();
    expect((await browser.login(customer.email, PASSWORD)).json()).toEqual({ ok: true, message: 'Signed in' });

    const entry = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.second_factor.reset')
      .where('target_id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(entry.actor_id).toBe(admin.id);
    expect(JSON.parse(entry.after_json!)).toEqual({ identityCheck: IDENTITY_CHECK });
    await expect
      .poll(() =>
        server()
          .smtp.mailsTo(customer.email)
          .map((m) => m.subject),
      )
      .toContain('Sage support turned off two-step sign-in for your account');
    // Nothing left to reset.
    expect(
      errorBody(await admin.client.post(`/api/admin/users/${customer.id}/second-factor/reset`, { identityCheck: IDENTITY_CHECK })).error,
    ).toBe('second_factor_not_enrolled');
  });

  it('support may reset a customer, not a member of staff', async () => {
    const support = await signedInAdmin(server());
    await server().db.updateTable('users').set({ staff_role: 'support' }).where('id', '=', support.id).execute();
    await enrol(support.client);
    const other = await signedInAdmin(server());
    await enrol(other.client);
    const refused = await support.client.post(`/api/admin/users/${other.id}/second-factor/reset`, { identityCheck: IDENTITY_CHECK });
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused).error).toBe('role_forbidden');
    const customer = await signedInUser(server(), 'customer');
    await enrol(customer.client);
    expect(
      (await support.client.post(`/api/admin/users/${customer.id}/second-factor/reset`, { identityCheck: IDENTITY_CHECK })).statusCode,
    ).toBe(200);
  });
});

describe.each(databases)('STAFF_SECOND_FACTOR=optional on $label', (database) => {
  const server = useTestServer(database, { STAFF_SECOND_FACTOR: 'optional' });

  it('lets a password-signed-in admin without a second factor in (a development machine, a test run)', async () => {
    const admin = await signedInAdmin(server());
    expect((await admin.client.get('/api/admin/users')).statusCode).toBe(200);
    expect((await admin.client.get('/api/account/second-factor')).json()).toMatchObject({ requiredForStaff: false });
  });
});
