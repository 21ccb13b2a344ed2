import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/admin';
import { stubFetch } from '../portal/render';
import { listPage, renderAdmin, setUpAdminTests, signedInAdmin } from './render';

setUpAdminTests();

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
    renderAdmin('/admin/audit');
    const row = (await screen.findByText('root@example.com')).closest('tr') as HTMLElement;
    expect(within(row).getByText('user.update')).toBeInTheDocument();
    expect(within(row).getByText('user u1')).toBeInTheDocument();
    expect(within(row).getByText('{ "username": "ada" }')).toBeInTheDocument();
    expect(within(row).getByText('{ "username": "ada2" }')).toBeInTheDocument();
    expect(screen.getByText('1-25 of 30')).toBeInTheDocument();
    const url = new URL(String(fetch.mock.calls.find(([u]) => String(u).startsWith('/api/admin/audit'))?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ sort: '["createdAt","DESC"]', range: '[0,24]', filter: '{}' });
  });
});
