/**
 * A customer reissues their own license (issue 27): the console's reissue with the user as its
 * actor, so the old token is refused at once with license_revoked and every install signs in again.
 */
import { describe, expect, it } from 'vitest';
import { ACCOUNT_SECURITY_RATE_LIMITS } from '../../server/services/rateLimiter';
import { signedInUser } from './adminFlow';
import { databases, errorBody, useTestServer, type TestServer } from './harness';

const tokenOf = async (server: TestServer, id: string) =>
  (await server.db.selectFrom('users').select('license_token').where('id', '=', id).executeTakeFirstOrThrow()).license_token;

describe.each(databases)('reissuing your own license on $label', (database) => {
  const server = useTestServer(database);

  const licenseWith = (token: string) =>
    server()
      .client()
      .get('/api/license', { headers: { authorization: `Bearer ${token}` } });

  it('refuses the old token at once with license_revoked; the new one works; the browser is given neither', async () => {
    const user = await signedInUser(server());
    const before = await tokenOf(server(), user.id);
    expect((await licenseWith(before)).statusCode).toBe(200);

    const response = await user.client.post('/api/account/license/reissue');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, message: 'Your license was reissued. Every Sage install must sign in again.' });

    const after = await tokenOf(server(), user.id);
    expect(after).not.toBe(before);
    expect(response.body).not.toContain(after);
    const refused = await licenseWith(before);
    expect(refused.statusCode).toBe(401);
    expect(errorBody(refused).error).toBe('license_revoked');
    expect((await licenseWith(after)).statusCode).toBe(200);
    // The browser's session is another credential: it stays.
    expect((await user.client.get('/api/user')).statusCode).toBe(200);
  });

  it("is audited as the console's reissue, with the user as the actor", async () => {
    const user = await signedInUser(server());
    await user.client.post('/api/account/license/reissue');
    const entries = await server()
      .db.selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'license.reissue')
      .where('target_id', '=', user.id)
      .execute();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: user.id, actor_email: user.email, target_type: 'user' });
    expect(JSON.stringify(entries[0])).not.toContain(await tokenOf(server(), user.id));
  });

  it('allows a few an hour per user', async () => {
    const user = await signedInUser(server());
    const other = await signedInUser(server());
    const { limit } = ACCOUNT_SECURITY_RATE_LIMITS.licenseReissuePerUser;
    for (let i = 0; i < limit; i++) expect((await user.client.post('/api/account/license/reissue')).statusCode).toBe(200);
    const limited = await user.client.post('/api/account/license/reissue');
    expect(limited.statusCode).toBe(429);
    expect(errorBody(limited)).toEqual({ error: 'rate_limited', message: 'Too many license reissues. Please try again later.' });
    // Per user: someone else is not held back.
    expect((await other.client.post('/api/account/license/reissue')).statusCode).toBe(200);
  });

  it('is for signed-in users only', async () => {
    const response = await server().client().post('/api/account/license/reissue');
    expect(response.statusCode).toBe(401);
  });
});
