import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RECENT_LIMIT_MESSAGE, type StoredMessage } from '../../contract/admin';
import type * as BrowserModule from '../../src/browser';
import { saveFile } from '../../src/browser';
import { RecentMessages } from '../../src/admin/messages/RecentMessages';
import { json, stubFetch } from '../portal/render';
import { expectNotification, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), saveFile: vi.fn() };
});

setUpAdminTests({ wholeConsole: false });

/** The Recent Messages page alone, at its address in the console. */
const renderPage = () => renderConsolePage(<RecentMessages />, { path: '/admin/recent-messages' });
beforeEach(() => vi.mocked(saveFile).mockReset());

const message = (n: number): StoredMessage => ({
  id: `m${n}`,
  sessionId: `session-${n}`,
  message: { role: 'user', content: `question ${n}` },
  createdAt: '2026-11-22T10:00:00.000Z',
  messageSize: 40 + n,
});

/** Stubs the API; the recent-messages answer has `limit` messages (at most 3). */
function stubRecent() {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/messages/recent': (_init, url) => {
      const limit = Number(url.searchParams.get('limit'));
      return json({ messages: [1, 2, 3].slice(0, limit).map(message) });
    },
  });
}

const limitsAsked = (fetch: ReturnType<typeof stubFetch>) =>
  fetch.mock.calls
    .map(([url]) => new URL(String(url), 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/messages/recent')
    .map((url) => url.searchParams.get('limit'));

async function openRecent() {
  renderPage();
  return screen.findByRole('textbox', { name: 'Limit' });
}

describe('Recent Messages (§2, §5, §9)', () => {
  it('asks for 20 messages by default and lists them', async () => {
    const fetch = stubRecent();
    const limit = await openRecent();
    expect(limit).toHaveValue('20');
    const table = await screen.findByRole('table', { name: 'Recent Messages' });
    expect(within(table).getByText('session-1')).toBeInTheDocument();
    expect(within(table).getByText('43 characters')).toBeInTheDocument();
    expect(limitsAsked(fetch)).toEqual(['20']);
  });

  it.each(['0', '1001', 'abc', '2.5', '', '-5', '1e2'])('refuses the limit %j and asks for nothing', async (value) => {
    const fetch = stubRecent();
    const limit = await openRecent();
    await screen.findByRole('table', { name: 'Recent Messages' });
    await userEvent.clear(limit);
    if (value) await userEvent.type(limit, value);
    await userEvent.click(screen.getByRole('button', { name: 'Fetch' }));
    expect(await screen.findByText(RECENT_LIMIT_MESSAGE)).toBeInTheDocument();
    expect(limitsAsked(fetch)).toEqual(['20']);
  });

  it('asks again with a limit from 1 to 1000', async () => {
    const fetch = stubRecent();
    const limit = await openRecent();
    await screen.findByRole('table', { name: 'Recent Messages' });
    await userEvent.clear(limit);
    await userEvent.type(limit, '2');
    await userEvent.click(screen.getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(limitsAsked(fetch)).toEqual(['20', '2']));
    await waitFor(() => expect(screen.queryByText('session-3')).not.toBeInTheDocument());
    expect(screen.queryByText(RECENT_LIMIT_MESSAGE)).not.toBeInTheDocument();
  });

  it.each<[string, string]>([
    ['1', '1'],
    ['1000', '1000'],
    [' 42 ', '42'],
    ['20', '20'],
  ])('takes the limit %j and asks for %s messages', async (value, asked) => {
    const fetch = stubRecent();
    const limit = await openRecent();
    await screen.findByRole('table', { name: 'Recent Messages' });
    await userEvent.clear(limit);
    await userEvent.type(limit, `${value}{Enter}`);
    await waitFor(() => expect(limitsAsked(fetch)).toEqual(['20', asked]));
    expect(screen.queryByText(RECENT_LIMIT_MESSAGE)).not.toBeInTheDocument();
  });

  it('downloads the messages as a text file named by the date and says how many', async () => {
    stubRecent();
    await openRecent();
    await screen.findByRole('table', { name: 'Recent Messages' });
    await userEvent.click(screen.getByRole('button', { name: 'Download' }));

    await expectNotification('Downloaded 3 messages to text file');
    expect(saveFile).toHaveBeenCalledTimes(1);
    const [blob, filename] = vi.mocked(saveFile).mock.calls[0]!;
    expect(filename).toBe(`messages-${format(new Date(), 'yyyy-MM-dd')}.txt`);
    const text = await blob.text();
    expect(text).toContain('Session ID: session-1');
    expect(text).toContain('"content": "question 3"');
  });

  it('toasts Error when the messages cannot be read', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/messages/recent': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    await openRecent();
    await expectNotification('Error', 'Failed to fetch recent messages');
    expect(screen.getByRole('button', { name: 'Download' })).toBeDisabled();
  });
});
