import { randomUUID } from 'node:crypto';
import {
  INVITATION_DAYS,
  INVITATION_ERRORS,
  INVITATION_TTL_MS,
  acceptRefusal,
  invitationState,
  type Invitation,
  type InvitationAccepted,
  type InvitationList,
  type InvitationPreview,
} from '../../contract/orgInvitations';
import { invitationPath } from '../../contract/invitationLink';
import { ORG_ROLE_WORDS, roleGrantRefusal, type AssignableOrgRole } from '../../contract/orgs';
import { isPostgres, type Db } from '../db';
import type { OrgInvitationsTable } from '../db/schema';
import type { Actor, AuditService } from './audit';
import type { Mailer } from './mailer';
import { escapeHtml } from './mailer';
import { lockOrg, refused, roleFor, roleOf, storedRole } from './orgs';
import { hashToken, newToken } from './tokens';
import { normalizeEmail } from './users';

const iso = (ms: number) => new Date(ms).toISOString();

/** The invitation's mail: the organisation's name as its admins wrote it, who sent it, the link. */
export function invitationMail(orgName: string, inviter: string, role: AssignableOrgRole, link: string) {
  return {
    subject: `You're invited to join ${orgName} on Sage`,
    text:
      `Hello,\n\n` +
      `${inviter} invited you to join ${orgName} on Sage as ${ORG_ROLE_WORDS[role]}. To accept, open this link within ${INVITATION_DAYS} days:\n${link}\n\n` +
      `If you do not know them, ignore this mail: nothing will change.\n`,
    html:
      `<p>Hello,</p>` +
      `<p>${escapeHtml(inviter)} invited you to join ${escapeHtml(orgName)} on Sage as ${ORG_ROLE_WORDS[role]}. ` +
      `<a href="${escapeHtml(link)}">Accept the invitation</a> (the link works for ${INVITATION_DAYS} days).</p>` +
      `<p>If you do not know them, ignore this mail: nothing will change.</p>`,
  };
}

/** The role an invitation gives: never owner (ownership moves only by a transfer). */
const invitedRole = (stored: string): AssignableOrgRole => {
  const role = roleOf(stored);
  return role === 'owner' ? 'member' : role;
};

/**
 * Invitations to an organisation (issue 38, decision 039). Owners and admins invite an address
 * with a role (only the owner invites an admin); the link goes by mail, single use, valid 7 days; a
 * resend mails a new link and voids the old. Accepting is the signed-in account whose e-mail is
 * the invited address: the link proves the mailbox, the account proves who. Two accepts racing
 * make one membership: the invitation is marked accepted only while it is open, in the same
 * transaction as the membership.
 */
export function createOrgInvitationService(deps: { db: Db; audit: AuditService; mailer: Mailer; publicUrl: string }) {
  const { db, audit, mailer } = deps;

  const toInvitation = (row: OrgInvitationsTable & { inviter: string | null }, now: number): Invitation => ({
    id: row.id,
    email: row.email,
    role: invitedRole(row.role),
    invitedBy: row.inviter,
    createdAt: iso(Number(row.created_at)),
    expiresAt: iso(Number(row.expires_at)),
    expired: now >= Number(row.expires_at),
  });

  async function openInvitation(trx: Db, orgId: string, invId: string): Promise<OrgInvitationsTable> {
    const row = await trx
      .selectFrom('org_invitations')
      .selectAll()
      .where('id', '=', invId)
      .where('org_id', '=', orgId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw refused(INVITATION_ERRORS.invitationNotFound);
    return row;
  }

  /** Mails the link; if it cannot leave, `undo` takes back what was written for it. */
  async function mailLink(to: string, orgName: string, inviter: Actor, role: AssignableOrgRole, token: string, undo?: () => Promise<void>) {
    try {
      await mailer.send({
        to,
        ...invitationMail(orgName, inviter.email ?? 'A member of the organisation', role, `${deps.publicUrl}${invitationPath(token)}`),
      });
    } catch (err) {
      await undo?.();
      throw refused(INVITATION_ERRORS.mailFailed, err);
    }
  }

  return {
    /** Invites `email` with `role` and mails the link; 409 if they are a member or have an open invitation. */
    async invite(actor: Actor, orgId: string, input: { email: string; role: AssignableOrgRole }, now = Date.now()): Promise<Invitation> {
      const email = normalizeEmail(input.email);
      const token = newToken();
      const id = randomUUID();
      const row: OrgInvitationsTable = {
        id,
        org_id: orgId,
        email,
        role: input.role,
        token_hash: hashToken(token),
        invited_by: actor.id,
        created_at: now,
        expires_at: now + INVITATION_TTL_MS,
        accepted_at: null,
        accepted_by: null,
        revoked_at: null,
      };
      const orgName = await db.transaction().execute(async (trx) => {
        const org = await lockOrg(trx, orgId);
        const actorRole = await roleFor(trx, orgId, actor.id, 'manageMembers');
        const refusal = roleGrantRefusal(actorRole, input.role);
        if (refusal) throw refused(refusal);
        const member = await trx
          .selectFrom('org_members')
          .innerJoin('users', 'users.id', 'org_members.user_id')
          .select('users.id')
          .where('org_members.org_id', '=', orgId)
          .where('users.email', '=', email)
          .executeTakeFirst();
        if (member) throw refused(INVITATION_ERRORS.alreadyMember);
        const open = await trx
          .selectFrom('org_invitations')
          .select('id')
          .where('org_id', '=', orgId)
          .where('email', '=', email)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (open) throw refused(INVITATION_ERRORS.alreadyInvited);
        await trx.insertInto('org_invitations').values(row).execute();
        await audit.record(
          actor,
          { action: 'org.invitation.create', targetType: 'org', targetId: orgId, after: { invitationId: id, email, role: input.role } },
          trx,
        );
        return org.name;
      });
      await mailLink(email, orgName, actor, input.role, token, async () => {
        await db.deleteFrom('org_invitations').where('id', '=', id).execute();
      });
      return toInvitation({ ...row, inviter: actor.email }, now);
    },

    /** The open invitations (expired ones too, marked so, until revoked or resent), newest first. */
    async list(actor: Actor, orgId: string, now = Date.now()): Promise<InvitationList> {
      await roleFor(db, orgId, actor.id, 'manageMembers');
      const rows = await db
        .selectFrom('org_invitations')
        .leftJoin('users', 'users.id', 'org_invitations.invited_by')
        .selectAll('org_invitations')
        .select((eb) => eb.fn.coalesce('users.email', 'users.username').as('inviter'))
        .where('org_invitations.org_id', '=', orgId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .orderBy('org_invitations.created_at', 'desc')
        .orderBy('org_invitations.id', 'desc')
        .execute();
      return { invitations: rows.map((row) => toInvitation(row, now)) };
    },

    /** Withdraws an open invitation: its link stops working. Audited as org.invitation.revoke. */
    async revoke(actor: Actor, orgId: string, invId: string, now = Date.now()): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await lockOrg(trx, orgId);
        await roleFor(trx, orgId, actor.id, 'manageMembers');
        const row = await openInvitation(trx, orgId, invId);
        await trx.updateTable('org_invitations').set({ revoked_at: now }).where('id', '=', invId).execute();
        await audit.record(
          actor,
          { action: 'org.invitation.revoke', targetType: 'org', targetId: orgId, before: { invitationId: invId, email: row.email } },
          trx,
        );
      });
    },

    /** Mails a new link, valid 7 days from now; the old link stops working. Audited as org.invitation.resend. */
    async resend(actor: Actor, orgId: string, invId: string, now = Date.now()): Promise<Invitation> {
      const token = newToken();
      const { row, orgName } = await db.transaction().execute(async (trx) => {
        const org = await lockOrg(trx, orgId);
        await roleFor(trx, orgId, actor.id, 'manageMembers');
        const open = await openInvitation(trx, orgId, invId);
        const renewed = { ...open, token_hash: hashToken(token), expires_at: now + INVITATION_TTL_MS, invited_by: actor.id };
        await trx
          .updateTable('org_invitations')
          .set({ token_hash: renewed.token_hash, expires_at: renewed.expires_at, invited_by: actor.id })
          .where('id', '=', invId)
          .execute();
        await audit.record(
          actor,
          { action: 'org.invitation.resend', targetType: 'org', targetId: orgId, after: { invitationId: invId, email: open.email } },
          trx,
        );
        return { row: renewed, orgName: org.name };
      });
      // The old link stays void either way: a resend that could not mail leaves it to be resent again.
      await mailLink(row.email, orgName, actor, invitedRole(row.role), token);
      return toInvitation({ ...row, inviter: actor.email }, now);
    },

    /** What the link's page shows: the organisation, the address, the role, and where it stands. */
    async preview(token: string, now = Date.now()): Promise<InvitationPreview> {
      const row = await db
        .selectFrom('org_invitations')
        .innerJoin('orgs', 'orgs.id', 'org_invitations.org_id')
        .leftJoin('users', 'users.id', 'org_invitations.invited_by')
        .selectAll('org_invitations')
        .select(['orgs.name as org_name'])
        .select((eb) => eb.fn.coalesce('users.email', 'users.username').as('inviter'))
        .where('org_invitations.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) throw refused(INVITATION_ERRORS.notFound);
      return {
        orgName: row.org_name,
        email: row.email,
        role: roleOf(row.role),
        invitedBy: row.inviter,
        expiresAt: iso(Number(row.expires_at)),
        state: invitationState({ acceptedAt: row.accepted_at, revokedAt: row.revoked_at, expiresAt: Number(row.expires_at) }, now),
      };
    },

    /**
     * Joins the organisation as the invitation's role, if `user`'s e-mail is the invited one; the
     * invitation is used up. 404 unknown link, 409 used, 410 revoked or expired, 403 another address
     * (nothing changes), 409 a member already. Audited as org.invitation.accept.
     */
    async accept(user: { id: string; email: string | null }, token: string, now = Date.now()): Promise<InvitationAccepted> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('org_invitations')
          .select(['id', 'org_id'])
          .where('token_hash', '=', hashToken(token))
          .executeTakeFirst();
        if (!found) throw refused(INVITATION_ERRORS.notFound);
        // The organisation's lock first, as every change of its members takes it: then the invitation as it is now.
        const org = await lockOrg(trx, found.org_id);
        const row = await trx.selectFrom('org_invitations').selectAll().where('id', '=', found.id).executeTakeFirstOrThrow();
        const refusal = acceptRefusal(
          invitationState({ acceptedAt: row.accepted_at, revokedAt: row.revoked_at, expiresAt: Number(row.expires_at) }, now),
        );
        if (refusal) throw refused(refusal);
        if (!user.email || normalizeEmail(user.email) !== row.email) throw refused(INVITATION_ERRORS.otherAddress);
        if (await storedRole(trx, row.org_id, user.id)) throw refused(INVITATION_ERRORS.alreadyMember);
        // Share-locked: the account's deletion waits for this membership, then takes it with it.
        if (isPostgres(trx)) await trx.selectFrom('users').select('id').where('id', '=', user.id).forShare().execute();
        const used = await trx
          .updateTable('org_invitations')
          .set({ accepted_at: now, accepted_by: user.id })
          .where('id', '=', row.id)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw refused(INVITATION_ERRORS.accepted);
        await trx.insertInto('org_members').values({ org_id: row.org_id, user_id: user.id, role: row.role, joined_at: now }).execute();
        await audit.record(
          { id: user.id, email: user.email },
          {
            action: 'org.invitation.accept',
            targetType: 'org',
            targetId: row.org_id,
            after: { invitationId: row.id, userId: user.id, role: row.role },
          },
          trx,
        );
        return { orgId: row.org_id, orgName: org.name, role: roleOf(row.role) };
      });
    },
  };
}

export type OrgInvitationService = ReturnType<typeof createOrgInvitationService>;
