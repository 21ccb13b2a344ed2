import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_MESSAGES } from '../../contract/admin';
import type * as BrowserModule from '../../src/portal/browser';
import { saveFile } from '../../src/portal/browser';
import { currentLocation, json, stubFetch } from '../portal/render';
import { ada, expectNotification, renderAdmin, signedInAdmin, setUpAdminTests } from './render';

vi.mock('../../src/portal/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests();
beforeEach(() => vi.mocked(saveFile).mockReset());

const thread = (n: number) => ({
  id: `t${n}`,
  created_at: `2026-03-${String(n + 1).padStart(2, '0')}T12:00:00.000Z`,
  messages: [
    { role: 'user', content: `How do I spawn actor ${n}?` },
    { role: 'assistant', content: `Use SpawnActor ${n}.` },
  ],
});

type Routes = Parameters<typeof stubFetch>[0];

function stubUser(routes: Routes = {}) {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [thread(0), thread(1)] }),
    ...routes,
  });
}

async function openUser() {
  renderAdmin('/admin/users/u1/show');
  return screen.findByText('lic-3f9a-77c2');
}

const historyPanel = () => screen.findByRole('region', { name: 'AI Chat History' });

describe('A user’s page (§2, §3)', () => {
  it('shows the account and the license token', async () => {
    stubUser();
    await openUser();
    expect(screen.getByText('ada')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('License Token')).toBeInTheDocument();
  });

  it('saves the license file under the name the server gives', async () => {
    const fetch = stubUser({
      'GET /api/sage/u1/license': () =>
        new Response('{"payload":{}}', { headers: { 'content-disposition': 'attachment; filename="sage-license-u1.json"' } }),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Download License' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    const [blob, filename] = vi.mocked(saveFile).mock.calls[0]!;
    expect(filename).toBe('sage-license-u1.json');
    expect(await blob.text()).toBe('{"payload":{}}');
    const url = fetch.mock.calls.map(([u]) => String(u)).find((u) => u.startsWith('/api/sage/'));
    expect(url).toBe('/api/sage/u1/license?download=true');
  });

  it('shows each AI thread with its time, assistant messages set apart', async () => {
    stubUser();
    await openUser();
    const panel = await historyPanel();
    const threads = await within(panel).findAllByRole('article');
    expect(threads).toHaveLength(2);
    expect(within(threads[0]!).getByText('2026', { exact: false })).toHaveAttribute('datetime', '2026-03-01T12:00:00.000Z');
    const question = within(threads[0]!).getByText('How do I spawn actor 0?').parentElement!;
    const answer = within(threads[0]!).getByText('Use SpawnActor 0.').parentElement!;
    expect(question).toHaveAttribute('data-role', 'user');
    expect(answer).toHaveAttribute('data-role', 'assistant');
    expect(getComputedStyle(answer).backgroundColor).not.toBe(getComputedStyle(question).backgroundColor);
  });

  it('shows at most the first 10 threads', async () => {
    stubUser({ 'GET /api/admin/users/u1/ai-history': () => json({ threads: Array.from({ length: 12 }, (_, n) => thread(n)) }) });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findAllByRole('article')).toHaveLength(10);
  });

  it('says when there is no chat history', async () => {
    stubUser({ 'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }) });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findByText('No chat history available. The threads may have expired or been deleted.')).toBeInTheDocument();
  });

  it('says when the chat history cannot be read', async () => {
    stubUser({ 'GET /api/admin/users/u1/ai-history': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error') });
    await openUser();
    const panel = await historyPanel();
    expect(await within(panel).findByText('Failed to fetch AI history')).toBeInTheDocument();
    await expectNotification('Failed to fetch AI history');
  });

  it('deletes the user after confirmation and goes to the list', async () => {
    const fetch = stubUser({
      'DELETE /api/admin/users/u1': () => json({ ok: true }),
      'GET /api/admin/users': () => new Response('[]', { headers: { 'content-type': 'application/json', 'x-total-count': '0' } }),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await expectNotification('User deleted successfully');
    await waitFor(() => expect(currentLocation()).toBe('/admin/users'));
  });

  it('says the user could not be deleted, with the server’s reason', async () => {
    stubUser({
      'DELETE /api/admin/users/u1': () => json({ error: 'Bad Request', message: ADMIN_MESSAGES.selfDeletion }, 400, 'Bad Request'),
    });
    await openUser();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await expectNotification('Error', 'Failed to delete user', ADMIN_MESSAGES.selfDeletion);
    expect(currentLocation()).toBe('/admin/users/u1/show');
  });
});
