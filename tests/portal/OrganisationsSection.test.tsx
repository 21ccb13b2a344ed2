/** The dashboard's Organisations section (issue 38): members with the controls each role allows, invitations, creating and deleting. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Invitation } from '../../contract/orgInvitations';
import type { Org, OrgMember } from '../../contract/orgs';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { bodyOf, json, renderScreen, stubFetch } from './render';

const ada = { id: 'u1', username: 'ada', email: 'ada@studio.example', status: 'Active', isAdmin: false };
const studio = (role: Org['role']): Org => ({
  id: 'o1',
  name: 'Grove Studio',
  role,
  members: 3,
  seats: { bought: 0, assigned: 0 },
  createdAt: '2026-11-01T00:00:00.000Z',
});
const member = (userId: string, name: string, role: OrgMember['role']): OrgMember => ({
  userId,
  name,
  email: `${name.toLowerCase()}@studio.example`,
  role,
  joinedAt: '2026-11-02T00:00:00.000Z',
  seat: false,
  monthlyLimit: null,
  usage: 0,
  poolUsage: 0,
  lastActiveAt: null,
  suspended: false,
});
const NO_USAGE = {
  period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  days: [],
  units: [],
  byMember: [],
  byProject: [],
  byEngineVersion: [],
};
const MEMBERS = [member('u1', 'Ada', 'owner'), member('u2', 'Brin', 'admin'), member('u3', 'Cato', 'member')];
const invitation: Invitation = {
  id: 'i1',
  email: 'dee@studio.example',
  role: 'member',
  invitedBy: 'ada@studio.example',
  createdAt: '2026-11-20T00:00:00.000Z',
  expiresAt: '2026-11-27T00:00:00.000Z',
  expired: false,
};

function stubStudio(role: Org['role'], extra: Parameters<typeof stubFetch>[0] = {}) {
  // Ada (u1) is the viewer: the owner, or with `role` in Owen's studio.
  const viewerMembers = role === 'owner' ? MEMBERS : [member('u9', 'Owen', 'owner'), { ...MEMBERS[0]!, role }, MEMBERS[2]!];
  return stubFetch({
    'GET /api/user': () => json(ada),
    'GET /api/orgs': () => json({ orgs: [studio(role)] }),
    'GET /api/orgs/o1/members': () => json({ members: viewerMembers }),
    'GET /api/orgs/o1/invitations': () => json({ invitations: [invitation] }),
    'GET /api/orgs/o1/billing': () => json({ details: null, subscription: null, seats: { bought: 0, assigned: 0 }, pool: 0 }),
    'GET /api/orgs/o1/usage': () => json(NO_USAGE),
    'GET /api/stripe/products': () => json({ ok: true, products: [] }),
    'GET /api/orgs/o1/audit': () =>
      json({
        entries: [
          {
            id: 'a1',
            action: 'org.invitation.create',
            actor: 'ada@studio.example',
            at: '2026-11-20T10:00:00.000Z',
            text: 'Invited dee@studio.example as a member',
          },
        ],
      }),
    ...extra,
  });
}

const members = async () => within(await screen.findByRole('list', { name: 'Members of Grove Studio' }));

describe('OrganisationsSection', () => {
  it('shows an owner every member with role choices, Make owner and Remove, and the invitations', async () => {
    stubStudio('owner');
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    expect(await screen.findByRole('heading', { level: 1, name: 'Organisations' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Grove Studio' })).toBeInTheDocument();
    expect(screen.getByText('You are the owner. 3 members.')).toBeInTheDocument();
    const list = await members();
    expect(list.getByText('Ada (you)')).toBeInTheDocument();
    expect(list.queryByRole('button', { name: 'Leave' })).not.toBeInTheDocument();
    expect(list.getByRole('combobox', { name: 'Role of Brin' })).toBeInTheDocument();
    expect(list.getByRole('button', { name: 'Make owner: Cato' })).toBeInTheDocument();
    expect(list.getByRole('button', { name: 'Remove Cato' })).toBeInTheDocument();
    const invitations = within(await screen.findByRole('list', { name: 'Invitations to Grove Studio' }));
    expect(invitations.getByText('dee@studio.example')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete organisation' })).toBeInTheDocument();
    const activity = within(await screen.findByRole('list', { name: 'Activity in Grove Studio' }));
    expect(activity.getByText('Invited dee@studio.example as a member')).toBeInTheDocument();
  });

  it('shows a member the members and Leave only: no roles to change, no invitations, no Delete', async () => {
    stubStudio('member');
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    const list = await members();
    expect(list.getByRole('button', { name: 'Leave' })).toBeInTheDocument();
    expect(list.queryByRole('combobox')).not.toBeInTheDocument();
    expect(list.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Invitations to Grove Studio' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete organisation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Activity in Grove Studio' })).not.toBeInTheDocument();
  });

  it('invites an address with a role and removes a member after asking', async () => {
    const sent: unknown[] = [];
    const removed: string[] = [];
    stubStudio('owner', {
      'POST /api/orgs/o1/invitations': (init) => {
        sent.push(bodyOf(init));
        return json({ ...invitation, id: 'i2', email: 'eve@studio.example', role: 'billing' }, 201);
      },
      'DELETE /api/orgs/o1/members/u3': () => {
        removed.push('u3');
        return json({ ok: true });
      },
    });
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    const u = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Invite someone to Grove Studio' });
    await u.type(within(form).getByLabelText(/^E-mail/), 'eve@studio.example');
    await u.click(within(form).getByRole('combobox', { name: 'Role' }));
    await u.click(await screen.findByRole('option', { name: 'Billing' }));
    await u.click(within(form).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(sent).toEqual([{ email: 'eve@studio.example', role: 'billing' }]));
    expect(await screen.findByText('We sent a link to eve@studio.example. It works for 7 days.')).toBeInTheDocument();

    await u.click((await members()).getByRole('button', { name: 'Remove Cato' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Cato?' });
    await u.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(removed).toEqual(['u3']));
  });

  it('creates an organisation from its name', async () => {
    const created: unknown[] = [];
    stubFetch({
      'GET /api/user': () => json(ada),
      'GET /api/orgs': () => json({ orgs: [] }),
      'POST /api/orgs': (init) => {
        created.push(bodyOf(init));
        return json(studio('owner'), 201);
      },
    });
    renderScreen(<DashboardPage />, '/dashboard#organisations');
    expect(await screen.findByText(/You are not in any organisation/)).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText(/^Name/), 'Grove Studio');
    await u.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(created).toEqual([{ name: 'Grove Studio' }]));
    expect(await screen.findByText('You own Grove Studio. Invite its people by e-mail.')).toBeInTheDocument();
  });
});
