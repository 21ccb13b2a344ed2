import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, SESSION_ID_REQUIRED } from '../../contract/admin';
import { FindMessage } from '../../src/admin/messages/FindMessage';
import { json, stubFetch } from '../portal/render';
import { expectNotification, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests({ wholeConsole: false });

/** The Find Message page alone, at its address in the console. */
const renderPage = () => renderConsolePage(<FindMessage />, { path: '/admin/find-message' });

const stored = {
  id: 'm1',
  sessionId: 'sess-42',
  message: { role: 'assistant', content: 'Use a Blueprint', tokens: 12 },
  createdAt: '2026-11-22T10:00:00.000Z',
  messageSize: 57,
};

async function find(sessionId: string) {
  renderPage();
  const field = await screen.findByRole('textbox', { name: 'Session ID' });
  if (sessionId) await userEvent.type(field, sessionId);
  await userEvent.click(screen.getByRole('button', { name: 'Find' }));
}

describe('Find Message (§2, §5, §8)', () => {
  it('asks for a session ID when none is given, and sends nothing', async () => {
    const fetch = stubFetch(signedInAdmin);
    await find('  ');
    expect(await screen.findByText(SESSION_ID_REQUIRED)).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/messages/search'))).toBe(false);
  });

  it('shows the session ID, the message as indented JSON, its time and its size', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/messages/search': () => json(stored) });
    await find('sess-42');
    const size = await screen.findByText('57 characters');
    const details = size.closest('dl') as HTMLElement;
    expect(within(details).getByText('sess-42')).toBeInTheDocument();
    expect(within(details).getByText(/"content": "Use a Blueprint"/).textContent).toBe(JSON.stringify(stored.message, null, 2));
    expect(within(details).getByText('2026', { exact: false })).toHaveAttribute('datetime', stored.createdAt);
    const url = new URL(String(fetch.mock.calls.find(([u]) => String(u).includes('/messages/search'))?.[0]), 'http://localhost');
    expect(url.searchParams.get('sessionId')).toBe('sess-42');
  });

  it('finds with Enter, and a refused search hides what the previous one found', async () => {
    const fetch = stubFetch({ ...signedInAdmin, 'GET /api/admin/messages/search': () => json(stored) });
    renderPage();
    const field = await screen.findByRole('textbox', { name: 'Session ID' });
    await userEvent.type(field, 'sess-42{Enter}');
    expect(await screen.findByText('57 characters')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, '   {Enter}');
    expect(await screen.findByText(SESSION_ID_REQUIRED)).toBeInTheDocument();
    expect(screen.queryByText('57 characters')).not.toBeInTheDocument();
    expect(field).toHaveFocus();
    expect(fetch.mock.calls.filter(([url]) => String(url).includes('/messages/search'))).toHaveLength(1);
  });

  it('says no message was found on a 404', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/messages/search': () => json({ error: 'not_found', message: ADMIN_MESSAGES.messageNotFound }, 404, 'Not Found'),
    });
    await find('nope');
    expect(await screen.findByText('No message found for session ID')).toBeInTheDocument();
    expect(screen.queryByText('Failed to search for message')).not.toBeInTheDocument();
  });

  it('toasts that the search failed on other errors', async () => {
    stubFetch({
      ...signedInAdmin,
      'GET /api/admin/messages/search': () => json({ error: 'Internal Server Error', message: 'boom' }, 500, 'Internal Server Error'),
    });
    await find('sess-42');
    await expectNotification('Failed to search for message');
  });
});
