/**
 * Organisations (issue 38, decision 038): `POST`/`GET /api/orgs`, `GET`/`PATCH`/`DELETE
 * /api/orgs/{id}`, its members, their roles, leaving, removal and the transfer of ownership, on
 * each database: 404 to strangers, 403 where the role table says no, exactly one owner whatever
 * races, each write audited, and an owner's account not deleted.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import { ORG_ERRORS, type Org, type OrgList, type OrgMember, type OrgMembers, type OrgRole } from '../../contract/orgs';
import { auditLog, del, signedInAdmin, signedInUser, type Signed } from './adminFlow';
import { PASSWORD, databases, errorBody, useTestServer, type TestClient } from './harness';

const patch = (client: TestClient, url: string, json: unknown) => client.request('PATCH', url, { json });
const orgUrl = (id: string) => `/api/orgs/${id}`;
const memberUrl = (id: string, userId: string) => `${orgUrl(id)}/members/${encodeURIComponent(userId)}`;
const refusal = (r: { error: string; message: string }) => ({ error: r.error, message: r.message });

describe.each(databases)('organisations on $label', (database) => {
  const server = useTestServer(database, {}, { epic: false });

  async function createOrg(owner: Signed, name = 'Grove Studio'): Promise<Org> {
    const created = await owner.client.post('/api/orgs', { name });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<Org>();
  }

  /** Adds `user` with `role`, as an accepted invitation will (invitations come with their own routes). */
  async function addMember(orgId: string, user: Signed, role: OrgRole) {
    await server().db.insertInto('org_members').values({ org_id: orgId, user_id: user.id, role, joined_at: Date.now() }).execute();
  }

  async function membersOf(client: TestClient, orgId: string): Promise<OrgMember[]> {
    const listed = await client.get(`${orgUrl(orgId)}/members`);
    expect(listed.statusCode, listed.body).toBe(200);
    return listed.json<OrgMembers>().members;
  }

  const ownersOf = async (orgId: string) =>
    (await server().db.selectFrom('org_members').select('user_id').where('org_id', '=', orgId).where('role', '=', 'owner').execute()).map(
      (row) => row.user_id,
    );

  it('creates an organisation whose creator is the owner, lists it and reads it; a stranger is told it does not exist', async () => {
    const owner = await signedInUser(server(), 'org-owner');
    const org = await createOrg(owner, '  Grove Studio  ');
    expect(org).toMatchObject({ name: 'Grove Studio', role: 'owner', members: 1 });
    expect(org.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await owner.client.get('/api/orgs')).json<OrgList>().orgs).toEqual([org]);
    expect((await owner.client.get(orgUrl(org.id))).json<Org>()).toEqual(org);
    expect(await membersOf(owner.client, org.id)).toEqual([
      {
        userId: owner.id,
        name: expect.any(String),
        email: owner.email,
        role: 'owner',
        joinedAt: org.createdAt,
        seat: false,
        monthlyLimit: null,
        usage: 0,
        poolUsage: 0,
        lastActiveAt: null,
        suspended: false,
      },
    ]);
    expect(org.seats).toEqual({ bought: 0, assigned: 0 });

    const stranger = await signedInUser(server(), 'org-stranger');
    expect((await stranger.client.get('/api/orgs')).json<OrgList>().orgs).toEqual([]);
    for (const response of [
      await stranger.client.get(orgUrl(org.id)),
      await stranger.client.get(`${orgUrl(org.id)}/members`),
      await patch(stranger.client, orgUrl(org.id), { name: 'Mine now' }),
      await del(stranger.client, orgUrl(org.id)),
      await del(stranger.client, memberUrl(org.id, owner.id)),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(errorBody(response)).toEqual(refusal(ORG_ERRORS.notFound));
    }
    // An unknown id is not found.
    expect((await owner.client.get(orgUrl('00000000-0000-4000-8000-000000000000'))).statusCode).toBe(404);
    // Signed out: 401, as every signed-in route.
    expect((await server().client().get('/api/orgs')).statusCode).toBe(401);
  });

  it('refuses a missing, blank or over-long name with a clear 400, and creates nothing', async () => {
    const owner = await signedInUser(server(), 'org-names');
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 7 }]) {
      const response = await owner.client.post('/api/orgs', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorBody(response).error).toBe('invalid_request');
    }
    expect((await owner.client.get('/api/orgs')).json<OrgList>().orgs).toEqual([]);
  });

  it('lets each role do what the role table says, and refuses the rest with 403', async () => {
    const owner = await signedInUser(server(), 'org-roles-owner');
    const admin = await signedInUser(server(), 'org-roles-admin');
    const billing = await signedInUser(server(), 'org-roles-billing');
    const member = await signedInUser(server(), 'org-roles-member');
    const org = await createOrg(owner);
    await addMember(org.id, admin, 'admin');
    await addMember(org.id, billing, 'billing');
    await addMember(org.id, member, 'member');

    // Everyone reads the organisation and its members: owner first, then by role.
    for (const reader of [owner, admin, billing, member]) {
      expect((await membersOf(reader.client, org.id)).map((m) => m.role)).toEqual(['owner', 'admin', 'billing', 'member']);
      expect((await reader.client.get(orgUrl(org.id))).json<Org>()).toMatchObject({ members: 4 });
    }

    const forbidden = (response: { statusCode: number; body: string }) => {
      expect(response.statusCode, response.body).toBe(403);
      expect(JSON.parse(response.body)).toEqual(refusal(ORG_ERRORS.roleForbidden));
    };
    forbidden(await patch(member.client, orgUrl(org.id), { name: 'Renamed' }));
    forbidden(await patch(billing.client, orgUrl(org.id), { name: 'Renamed' }));
    forbidden(await patch(member.client, memberUrl(org.id, billing.id), { role: 'member' }));
    forbidden(await del(billing.client, memberUrl(org.id, member.id)));
    forbidden(await del(admin.client, orgUrl(org.id)));
    forbidden(await admin.client.post(`${orgUrl(org.id)}/transfer`, { userId: admin.id }));

    // An admin renames and manages the members below admin, but not another admin nor makes one.
    const renamed = await patch(admin.client, orgUrl(org.id), { name: 'Grove Games' });
    expect(renamed.json<Org>()).toMatchObject({ name: 'Grove Games', role: 'admin' });
    const promoted = await patch(admin.client, memberUrl(org.id, member.id), { role: 'billing' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json<OrgMember>()).toMatchObject({ userId: member.id, role: 'billing' });
    const madeAdmin = await patch(admin.client, memberUrl(org.id, member.id), { role: 'admin' });
    expect(madeAdmin.statusCode).toBe(403);
    expect(errorBody(madeAdmin)).toEqual(refusal(ORG_ERRORS.adminsOnly));
    // Ownership moves only by a transfer; an unknown member is not found.
    const ownerRole = await patch(owner.client, memberUrl(org.id, owner.id), { role: 'admin' });
    expect(ownerRole.statusCode).toBe(409);
    expect(errorBody(ownerRole)).toEqual(refusal(ORG_ERRORS.ownerRole));
    expect((await patch(owner.client, memberUrl(org.id, 'no-such-user'), { role: 'member' })).statusCode).toBe(404);
    expect((await patch(owner.client, memberUrl(org.id, member.id), { role: 'owner' })).statusCode).toBe(400);

    // The owner makes an admin; only the owner removes one.
    const removeAdmin = await del(admin.client, memberUrl(org.id, (await madeOrgAdmin(org.id, owner, member)).id));
    expect(removeAdmin.statusCode).toBe(403);
    expect(errorBody(removeAdmin)).toEqual(refusal(ORG_ERRORS.adminsOnly));
    expect((await del(owner.client, memberUrl(org.id, member.id))).statusCode).toBe(200);
    expect((await membersOf(owner.client, org.id)).map((m) => m.userId)).toEqual([owner.id, admin.id, billing.id]);
    // The removed member no longer sees it.
    expect((await member.client.get(orgUrl(org.id))).statusCode).toBe(404);
  });

  /** The owner makes `user` an admin, and returns them. */
  async function madeOrgAdmin(orgId: string, owner: Signed, user: Signed): Promise<Signed> {
    const made = await patch(owner.client, memberUrl(orgId, user.id), { role: 'admin' });
    expect(made.statusCode, made.body).toBe(200);
    return user;
  }

  it('lets a member leave but not the owner, who transfers ownership first; every change audited', async () => {
    const owner = await signedInUser(server(), 'org-leave-owner');
    const heir = await signedInUser(server(), 'org-leave-heir');
    const artist = await signedInUser(server(), 'org-leave-artist');
    const org = await createOrg(owner);
    await addMember(org.id, heir, 'billing');
    await addMember(org.id, artist, 'member');

    expect((await del(artist.client, memberUrl(org.id, artist.id))).statusCode).toBe(200);
    expect((await artist.client.get('/api/orgs')).json<OrgList>().orgs).toEqual([]);

    const ownerLeaves = await del(owner.client, memberUrl(org.id, owner.id));
    expect(ownerLeaves.statusCode).toBe(409);
    expect(errorBody(ownerLeaves)).toEqual(refusal(ORG_ERRORS.ownerStays));
    expect((await owner.client.post(`${orgUrl(org.id)}/transfer`, { userId: owner.id })).statusCode).toBe(400);
    expect((await owner.client.post(`${orgUrl(org.id)}/transfer`, { userId: artist.id })).statusCode).toBe(404);

    const transferred = await owner.client.post(`${orgUrl(org.id)}/transfer`, { userId: heir.id });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect(transferred.json<Org>()).toMatchObject({ role: 'admin' });
    expect(await ownersOf(org.id)).toEqual([heir.id]);
    expect((await del(owner.client, memberUrl(org.id, owner.id))).statusCode).toBe(200);
    expect((await membersOf(heir.client, org.id)).map((m) => [m.userId, m.role])).toEqual([[heir.id, 'owner']]);

    const staff = await signedInAdmin(server());
    const entries = (await auditLog(staff.client, 100)).entries.filter((e: AuditEntry) => e.targetId === org.id);
    expect(entries.map((e) => [e.action, e.actorId])).toEqual([
      ['org.member.leave', owner.id],
      ['org.transfer', owner.id],
      ['org.member.leave', artist.id],
      ['org.create', owner.id],
    ]);
    expect(entries[1]).toMatchObject({ targetType: 'org', before: { owner: owner.id, role: 'billing' }, after: { owner: heir.id } });
    // Staff see the memberships on the user's page.
    const details = await staff.client.get(`/api/admin/users/${heir.id}/details`);
    expect(details.json<{ memberships: unknown[] }>().memberships).toEqual([
      { orgId: org.id, name: org.name, role: 'owner', joinedAt: expect.any(String) },
    ]);
  });

  it('keeps exactly one owner when transfers race, and refuses to delete an account that owns an organisation', async () => {
    const owner = await signedInUser(server(), 'org-race-owner');
    const heirs = await Promise.all([signedInUser(server(), 'org-race-a'), signedInUser(server(), 'org-race-b')]);
    const org = await createOrg(owner);
    for (const heir of heirs) await addMember(org.id, heir, 'member');

    const answers = await Promise.all(heirs.map((heir) => owner.client.post(`${orgUrl(org.id)}/transfer`, { userId: heir.id })));
    // The first makes its heir the owner; the second finds the caller no longer owns it.
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
    const owners = await ownersOf(org.id);
    expect(owners).toHaveLength(1);
    const newOwner = heirs.find((heir) => heir.id === owners[0])!;

    expect((await newOwner.client.get('/api/account/deletion')).json<{ ownsOrganisation: boolean }>().ownsOrganisation).toBe(true);
    const username = async (user: Signed) => (await user.client.get('/api/user')).json<{ username: string }>().username;
    const refused = await newOwner.client.request('DELETE', '/api/account', {
      json: { confirm: await username(newOwner), password: PASSWORD },
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(errorBody(refused)).toEqual(refusal(ORG_ERRORS.ownsOrg));
    expect((await newOwner.client.get('/api/user')).statusCode).toBe(200);

    // Once the organisation is deleted, the account goes; the organisation's memberships went with it.
    expect((await del(owner.client, orgUrl(org.id))).statusCode).toBe(403);
    const deleted = await del(newOwner.client, orgUrl(org.id));
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await server().db.selectFrom('org_members').select('user_id').where('org_id', '=', org.id).execute()).toEqual([]);
    expect((await owner.client.get(orgUrl(org.id))).statusCode).toBe(404);
    const gone = await newOwner.client.request('DELETE', '/api/account', {
      json: { confirm: await username(newOwner), password: PASSWORD },
    });
    expect(gone.statusCode, gone.body).toBe(200);
  });

  it('documents each route with the roles the table refuses', async () => {
    const document = (await server().client().get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, { description: string }> }>>;
    }>();
    const refusedRoles = (path: string, method: string) =>
      /org_forbidden\): not for ([a-z ]+)/.exec(document.paths[path]?.[method]?.responses['403']?.description ?? '')?.[1];
    expect(refusedRoles('/api/orgs/{id}', 'delete')).toBe('admin or billing or member');
    expect(refusedRoles('/api/orgs/{id}', 'patch')).toBe('billing or member');
    expect(refusedRoles('/api/orgs/{id}/transfer', 'post')).toBe('admin or billing or member');
    expect(refusedRoles('/api/orgs/{id}/members/{userId}', 'patch')).toBe('billing or member');
    // Everyone who is a member reads: no role is refused, and a stranger is told 404.
    expect(document.paths['/api/orgs/{id}/members']?.get?.responses['403']?.description ?? '').not.toContain('org_forbidden');
    expect(document.paths['/api/orgs/{id}/members']?.get?.responses['404']?.description).toContain('Not a member of the organisation');
    expect(document.paths['/api/orgs']?.post?.tags).toEqual(['Organisations']);
  });

  it("takes a deleted member's memberships with their account", async () => {
    const owner = await signedInUser(server(), 'org-gone-owner');
    const member = await signedInUser(server(), 'org-gone-member');
    const org = await createOrg(owner);
    await addMember(org.id, member, 'admin');
    const username = (await member.client.get('/api/user')).json<{ username: string }>().username;
    const deleted = await member.client.request('DELETE', '/api/account', { json: { confirm: username, password: PASSWORD } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await membersOf(owner.client, org.id)).map((m) => m.userId)).toEqual([owner.id]);
  });
});
