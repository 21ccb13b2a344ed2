import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditEntry } from '../../contract/admin';
import { AuditList } from '../../src/admin/audit/AuditList';
import { stubFetch } from '../portal/render';
import { listPage, renderConsolePage, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests({ wholeConsole: false });

/** The Audit Log alone, at its address in the console. */
const renderPage = () => renderConsolePage(<AuditList />, { path: '/admin/audit', resource: 'audit' });

const entry: AuditEntry = {
  id: 'a1',
  actorId: 'admin-1',
  actorEmail: 'root@example.com',
  action: 'user.update',
  targetType: 'user',
  targetId: 'u1',
  before: { username: 'ada' },
  after: { username: 'ada2' },
  createdAt: '2026-01-02T03:04:05.000Z',
};

describe('Audit Log', () => {
  it('lists who did what to which record, with the record before and after', async () => {
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/audit': () => listPage('audit', [entry], 30),
    });
    renderPage();
    const row = (await screen.findByText('root@example.com')).closest('tr') as HTMLElement;
    expect(within(row).getByText('user.update')).toBeInTheDocument();
    expect(within(row).getByText('user u1')).toBeInTheDocument();
    expect(within(row).getByText('{ "username": "ada" }')).toBeInTheDocument();
    expect(within(row).getByText('{ "username": "ada2" }')).toBeInTheDocument();
    expect(screen.getByText('1-25 of 30')).toBeInTheDocument();
    const url = new URL(String(fetch.mock.calls.find(([u]) => String(u).startsWith('/api/admin/audit'))?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ sort: '["createdAt","DESC"]', range: '[0,24]', filter: '{}' });
  });

  it('filters by who, action, target and UTC days, asking the server with each', async () => {
    const fetch = stubFetch({
      ...signedInAdmin,
      'GET /api/admin/audit': () => listPage('audit', [entry], 1),
    });
    renderPage();
    await screen.findByText('root@example.com');
    const lastFilter = () => {
      const calls = fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/admin/audit'));
      const url = new URL(String(calls.at(-1)?.[0]), 'http://localhost');
      return JSON.parse(url.searchParams.get('filter') ?? '{}') as Record<string, unknown>;
    };

    await userEvent.type(screen.getByRole('textbox', { name: 'Who (e-mail or ID)' }), 'root@example.com');
    await waitFor(() => expect(lastFilter()).toEqual({ actor: 'root@example.com' }));

    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    // Every action the server records, after the choice that clears the filter.
    expect(options.map((o) => o.textContent)).toEqual(['Any action', ...AUDIT_ACTIONS]);
    await userEvent.click(screen.getByRole('option', { name: 'user.delete' }));
    await waitFor(() => expect(lastFilter()).toEqual({ actor: 'root@example.com', action: 'user.delete' }));

    await userEvent.type(screen.getByRole('textbox', { name: 'Target ID' }), 'u1');
    await waitFor(() => expect(lastFilter()).toMatchObject({ target: 'u1' }));

    await userEvent.type(screen.getByLabelText('From (UTC day)'), '2026-01-02');
    await userEvent.type(screen.getByLabelText('To (UTC day)'), '2026-01-03');
    await waitFor(() =>
      expect(lastFilter()).toEqual({
        actor: 'root@example.com',
        action: 'user.delete',
        target: 'u1',
        from: '2026-01-02',
        to: '2026-01-03',
      }),
    );
  });
});
