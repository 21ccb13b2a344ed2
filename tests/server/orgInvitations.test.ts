/**
 * Invitations to an organisation (issue 38, decision 039): sent by mail with a single-use link valid
 * 7 days, listed, revoked and resent by owners and admins; the link's page reads it; accepting is
 * the account of the invited address, once, whatever races, on each database.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import {
  INVITATION_ERRORS,
  INVITATION_TTL_MS,
  type Invitation,
  type InvitationAccepted,
  type InvitationList,
  type InvitationPreview,
} from '../../contract/orgInvitations';
import { ORG_ERRORS, type Org, type OrgAudit, type OrgMembers } from '../../contract/orgs';
import { auditLog, del, signedInAdmin, signedInUser, type Signed } from './adminFlow';
import { mailerFromConfig } from '../../server/services/mailer';
import { closedLoopbackPort } from './epicFlow';
import { TestClient, buildExtraApp, databases, errorBody, uniqueEmail, useTestServer } from './harness';

const refusal = (r: { error: string; message: string }) => ({ error: r.error, message: r.message });
const invitationsUrl = (orgId: string) => `/api/orgs/${orgId}/invitations`;
const tokenOf = (link: string) => decodeURIComponent(/\/invitations\/([^/?#]+)/.exec(link)?.[1] ?? '');

describe.each(databases)('invitations on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  async function studio(owner: Signed): Promise<Org> {
    const created = await owner.client.post('/api/orgs', { name: 'Grove <Studio>' });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<Org>();
  }

  /** Invites `email` and returns the invitation and the token of the link mailed to it. */
  async function invite(
    client: TestClient,
    orgId: string,
    email: string,
    role = 'member',
  ): Promise<{ invitation: Invitation; token: string }> {
    server().smtp.clear();
    const sent = await client.post(invitationsUrl(orgId), { email, role });
    expect(sent.statusCode, sent.body).toBe(201);
    const mail = await server().smtp.waitForMail(email.toLowerCase());
    const link = mail.links.find((l) => l.includes('/invitations/'))!;
    expect(link).toMatch(/^http:\/\/sage\.test\/invitations\//);
    return { invitation: sent.json<Invitation>(), token: tokenOf(link) };
  }

  const preview = async (token: string) =>
    (
      await server()
        .client()
        .get(`/api/invitations/${encodeURIComponent(token)}`)
    ).json<InvitationPreview>();
  const accept = (client: TestClient, token: string) => client.post(`/api/invitations/${encodeURIComponent(token)}/accept`);

  it('mails a link to the address; its page shows the studio; the account of that address accepts it once and becomes a member', async () => {
    const owner = await signedInUser(server(), 'inv-owner');
    const org = await studio(owner);
    const artist = await signedInUser(server(), 'inv-artist');

    const { invitation, token } = await invite(owner.client, org.id, artist.email.toUpperCase(), 'billing');
    expect(invitation).toMatchObject({ email: artist.email, role: 'billing', invitedBy: owner.email, expired: false });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(INVITATION_TTL_MS);
    const mail = server().smtp.mailsTo(artist.email)[0]!;
    expect(mail.subject).toBe("You're invited to join Grove <Studio> on Sage");
    expect(mail.text).toContain(`${owner.email} invited you to join Grove <Studio> on Sage as a billing manager`);
    expect(mail.html).toContain('Grove &#60;Studio&#62;');
    expect(mail.html).not.toContain('<Studio>');
    expect((await owner.client.get(invitationsUrl(org.id))).json<InvitationList>().invitations).toEqual([invitation]);

    expect(await preview(token)).toEqual({
      orgName: 'Grove <Studio>',
      email: artist.email,
      role: 'billing',
      invitedBy: owner.email,
      expiresAt: invitation.expiresAt,
      state: 'pending',
    });

    // Another account, even signed in, cannot take it: nothing changes.
    const other = await signedInUser(server(), 'inv-other');
    const refused = await accept(other.client, token);
    expect(refused.statusCode).toBe(403);
    expect(errorBody(refused)).toEqual(refusal(INVITATION_ERRORS.otherAddress));
    expect((await server().client().post(`/api/invitations/${token}/accept`)).statusCode).toBe(401);

    const accepted = await accept(artist.client, token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<InvitationAccepted>()).toEqual({ orgId: org.id, orgName: 'Grove <Studio>', role: 'billing' });
    const members = (await artist.client.get(`/api/orgs/${org.id}/members`)).json<OrgMembers>().members;
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [owner.id, 'owner'],
      [artist.id, 'billing'],
    ]);
    expect((await owner.client.get(invitationsUrl(org.id))).json<InvitationList>().invitations).toEqual([]);
    expect((await preview(token)).state).toBe('accepted');

    const again = await accept(artist.client, token);
    expect(again.statusCode).toBe(409);
    expect(errorBody(again)).toEqual(refusal(INVITATION_ERRORS.accepted));
    const unknown = await accept(artist.client, 'not-a-token');
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown)).toEqual(refusal(INVITATION_ERRORS.notFound));
    expect((await server().client().get('/api/invitations/not-a-token')).statusCode).toBe(404);

    const staff = await signedInAdmin(server());
    const entries = (await auditLog(staff.client, 100)).entries.filter((e: AuditEntry) => e.targetId === org.id);
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['org.invitation.accept', artist.id],
      ['org.invitation.create', owner.id],
      ['org.create', owner.id],
    ]);
    // The organisation's own log, in words, for its owner; not for a billing member.
    const own = await owner.client.get(`/api/orgs/${org.id}/audit`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json<OrgAudit>().entries.map((e) => [e.actor, e.text])).toEqual([
      [artist.email, 'Joined as a billing manager, by invitation'],
      [owner.email, `Invited ${artist.email} as a billing manager`],
      [owner.email, 'Created the organisation as Grove <Studio>'],
    ]);
    const notTheirs = await artist.client.get(`/api/orgs/${org.id}/audit`);
    expect(notTheirs.statusCode).toBe(403);
    expect(errorBody(notTheirs)).toEqual(refusal(ORG_ERRORS.roleForbidden));
  });

  it('refuses an invitation to a member or a second open one, and lets only owners and admins invite (only the owner, an admin)', async () => {
    const owner = await signedInUser(server(), 'inv-rules-owner');
    const org = await studio(owner);
    const admin = await signedInUser(server(), 'inv-rules-admin');
    await server()
      .db.insertInto('org_members')
      .values({ org_id: org.id, user_id: admin.id, role: 'admin', joined_at: Date.now() })
      .execute();
    const member = await signedInUser(server(), 'inv-rules-member');
    await server()
      .db.insertInto('org_members')
      .values({ org_id: org.id, user_id: member.id, role: 'member', joined_at: Date.now() })
      .execute();

    const taken = await owner.client.post(invitationsUrl(org.id), { email: member.email });
    expect(taken.statusCode).toBe(409);
    expect(errorBody(taken)).toEqual(refusal(INVITATION_ERRORS.alreadyMember));
    const address = uniqueEmail('inv-rules-new');
    await invite(admin.client, org.id, address);
    const twice = await owner.client.post(invitationsUrl(org.id), { email: address });
    expect(twice.statusCode).toBe(409);
    expect(errorBody(twice)).toEqual(refusal(INVITATION_ERRORS.alreadyInvited));

    const byMember = await member.client.post(invitationsUrl(org.id), { email: uniqueEmail('inv-x') });
    expect(byMember.statusCode).toBe(403);
    expect(errorBody(byMember)).toEqual(refusal(ORG_ERRORS.roleForbidden));
    expect((await member.client.get(invitationsUrl(org.id))).statusCode).toBe(403);
    const adminByAdmin = await admin.client.post(invitationsUrl(org.id), { email: uniqueEmail('inv-x'), role: 'admin' });
    expect(adminByAdmin.statusCode).toBe(403);
    expect(errorBody(adminByAdmin)).toEqual(refusal(ORG_ERRORS.adminsOnly));
    expect((await owner.client.post(invitationsUrl(org.id), { email: 'not an address' })).statusCode).toBe(400);
    expect((await owner.client.post(invitationsUrl(org.id), { email: uniqueEmail('inv-x'), role: 'owner' })).statusCode).toBe(400);
    const stranger = await signedInUser(server(), 'inv-rules-stranger');
    expect((await stranger.client.post(invitationsUrl(org.id), { email: uniqueEmail('inv-x') })).statusCode).toBe(404);
  });

  it('revokes an invitation and resends another with a new link, the old one void; an expired link is refused', async () => {
    const owner = await signedInUser(server(), 'inv-revoke-owner');
    const org = await studio(owner);
    const first = await signedInUser(server(), 'inv-revoke-a');
    const second = await signedInUser(server(), 'inv-revoke-b');

    const revoked = await invite(owner.client, org.id, first.email);
    expect((await del(owner.client, `${invitationsUrl(org.id)}/${revoked.invitation.id}`)).statusCode).toBe(200);
    expect((await del(owner.client, `${invitationsUrl(org.id)}/${revoked.invitation.id}`)).statusCode).toBe(404);
    expect((await preview(revoked.token)).state).toBe('revoked');
    const late = await accept(first.client, revoked.token);
    expect(late.statusCode).toBe(410);
    expect(errorBody(late)).toEqual(refusal(INVITATION_ERRORS.revoked));
    // Revoked, the address may be invited again.
    await invite(owner.client, org.id, first.email);

    const sent = await invite(owner.client, org.id, second.email);
    server().smtp.clear();
    const resent = await owner.client.post(`${invitationsUrl(org.id)}/${sent.invitation.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const newToken = tokenOf((await server().smtp.waitForMail(second.email)).links.find((l) => l.includes('/invitations/'))!);
    expect(newToken).not.toBe(sent.token);
    expect((await accept(second.client, sent.token)).statusCode).toBe(404);

    // Past its 7 days: refused, and shown expired to its admins until revoked or resent.
    await server()
      .db.updateTable('org_invitations')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', sent.invitation.id)
      .execute();
    const expired = await accept(second.client, newToken);
    expect(expired.statusCode).toBe(410);
    expect(errorBody(expired)).toEqual(refusal(INVITATION_ERRORS.expired));
    const listed = (await owner.client.get(invitationsUrl(org.id))).json<InvitationList>().invitations;
    expect(listed.find((i) => i.id === sent.invitation.id)).toMatchObject({ expired: true });
  });

  it('makes one membership when two accepts of one invitation race', async () => {
    const owner = await signedInUser(server(), 'inv-race-owner');
    const org = await studio(owner);
    const artist = await signedInUser(server(), 'inv-race-artist');
    const { token } = await invite(owner.client, org.id, artist.email);
    const answers = await Promise.all([accept(artist.client, token), accept(artist.client, token), accept(artist.client, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const rows = await server()
      .db.selectFrom('org_members')
      .select('user_id')
      .where('org_id', '=', org.id)
      .where('user_id', '=', artist.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("keeps nothing when the mail cannot leave, and an organisation's deletion takes its invitations", async () => {
    const owner = await signedInUser(server(), 'inv-mail-owner');
    const org = await studio(owner);
    const port = await closedLoopbackPort();
    const config = { ...server().config, smtpUrl: `smtp://127.0.0.1:${port}` };
    const failing = await buildExtraApp(server().db, {}, { config, mailer: mailerFromConfig(config, { info: () => undefined }) });
    try {
      const onFailing = new TestClient(failing);
      for (const [name, value] of owner.client.cookies) onFailing.cookies.set(name, value);
      const email = uniqueEmail('inv-undeliverable');
      const response = await onFailing.post(invitationsUrl(org.id), { email });
      expect(response.statusCode).toBe(502);
      expect(errorBody(response)).toEqual(refusal(INVITATION_ERRORS.mailFailed));
      expect((await owner.client.get(invitationsUrl(org.id))).json<InvitationList>().invitations).toEqual([]);
    } finally {
      await failing.close();
    }

    const { token } = await invite(owner.client, org.id, uniqueEmail('inv-gone'));
    expect((await del(owner.client, `/api/orgs/${org.id}`)).statusCode).toBe(200);
    expect((await server().client().get(`/api/invitations/${token}`)).statusCode).toBe(404);
  });
});
