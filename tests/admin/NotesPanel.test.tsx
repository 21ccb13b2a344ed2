import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NOTE_MESSAGES, type UserNote } from '../../contract/userNotes';
import { UserShow } from '../../src/admin/users/UserShow';
import { formatDateTime } from '../../src/ui/format';
import { bodyOf, json, stubFetch } from '../portal/render';
import { ada, admin, emptyUsage, expectNotification, noAccountDetails, renderConsolePage, signedInAdmin, setUpAdminTests } from './render';

setUpAdminTests({ wholeConsole: false });

/** The user's page (UserShow) at `/admin/users/{id}/show`, without the rest of the console. */
const renderUserPage = (id = 'u1') =>
  renderConsolePage(<UserShow />, { path: `/admin/users/${id}/show`, route: '/users/:id/show', resource: 'users' });

type Routes = Parameters<typeof stubFetch>[0];

const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

/** The signed-in admin's note of 5 minutes ago: 10 minutes left to edit it. */
const mine: UserNote = {
  id: 'n3',
  userId: 'u1',
  authorId: admin.id,
  authorEmail: admin.email,
  text: 'Asked about a refund.\nTold them: 14 days.',
  createdAt: ago(5),
  updatedAt: ago(5),
  edited: false,
  editableUntil: new Date(Date.parse(ago(5)) + 15 * MINUTE).toISOString(),
};
const colleagues: UserNote = {
  id: 'n2',
  userId: 'u1',
  authorId: 'admin-2',
  authorEmail: 'grace@example.com',
  text: 'Prefers e-mail.',
  createdAt: ago(8),
  updatedAt: ago(7),
  edited: true,
  editableUntil: null,
};
const byDeletedStaff: UserNote = {
  ...colleagues,
  id: 'n1',
  authorId: null,
  authorEmail: null,
  text: 'Long-time customer.',
  createdAt: ago(600),
  updatedAt: ago(600),
  edited: false,
};

function stubUser(routes: Routes = {}) {
  return stubFetch({
    ...signedInAdmin,
    'GET /api/admin/users/u1': () => json(ada),
    'GET /api/admin/users/u1/ai-history': () => json({ threads: [] }),
    'GET /api/admin/users/u1/details': () => json(noAccountDetails),
    ...emptyUsage('u1'),
    'GET /api/admin/users/u1/notes': () => json({ notes: [mine, colleagues, byDeletedStaff] }),
    ...routes,
  });
}

async function notesPanel() {
  renderUserPage();
  const panel = await screen.findByRole('region', { name: 'Notes' });
  await waitFor(() => expect(within(panel).queryByRole('progressbar')).not.toBeInTheDocument());
  return panel;
}

const calls = (fetch: ReturnType<typeof stubFetch>, method: string, path: string) =>
  fetch.mock.calls.filter(
    ([url, init]) => new URL(String(url), 'http://localhost').pathname === path && (init?.method ?? 'GET') === method,
  );

describe('Notes on a user (issue 28)', () => {
  it('lists the notes newest first with author, time and text, marks edited ones, and offers Edit only on one’s own', async () => {
    stubUser();
    const panel = await notesPanel();
    const items = within(within(panel).getByRole('list', { name: 'Notes, newest first' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent(`root@example.com · ${formatDateTime(mine.createdAt)}`);
    expect(within(items[0]!).getByText(/Told them: 14 days/)).toBeInTheDocument();
    expect(items[1]).toHaveTextContent(
      `grace@example.com · ${formatDateTime(colleagues.createdAt)} · edited ${formatDateTime(colleagues.updatedAt)}`,
    );
    expect(items[2]).toHaveTextContent('A deleted staff account');
    expect(within(items[0]!).getByRole('button', { name: `Edit note of ${formatDateTime(mine.createdAt)}` })).toBeInTheDocument();
    expect(within(items[1]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(items[2]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says when there are none', async () => {
    stubUser({ 'GET /api/admin/users/u1/notes': () => json({ notes: [] }) });
    const panel = await notesPanel();
    expect(within(panel).getByText('No notes yet.')).toBeInTheDocument();
  });

  it('adds a multi-line note, says so, empties the field and reads the list again', async () => {
    let notes: UserNote[] = [];
    const fetch = stubUser({
      'GET /api/admin/users/u1/notes': () => json({ notes }),
      'POST /api/admin/users/u1/notes': (init) => {
        const { text } = bodyOf(init) as { text: string };
        notes = [{ ...mine, id: 'n9', text: text.trim() }];
        return json(notes[0]);
      },
    });
    const panel = await notesPanel();
    const field = within(panel).getByRole('textbox', { name: 'New note' });
    await userEvent.type(field, 'Called twice.{Enter}Wants a callback.');
    expect(within(panel).getByText('31 of 2,000 characters')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));

    await expectNotification('Note added');
    expect(bodyOf(calls(fetch, 'POST', '/api/admin/users/u1/notes')[0]![1])).toEqual({ text: 'Called twice.\nWants a callback.' });
    await waitFor(() => expect(field).toHaveValue(''));
    expect(await within(panel).findByRole('listitem')).toHaveTextContent('Wants a callback.');
  });

  it('refuses an empty note and sends nothing', async () => {
    const fetch = stubUser();
    const panel = await notesPanel();
    await userEvent.type(within(panel).getByRole('textbox', { name: 'New note' }), '   ');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    expect(await within(panel).findByText('A note needs some text')).toBeInTheDocument();
    expect(within(panel).getByRole('textbox', { name: 'New note' })).toHaveAttribute('aria-invalid', 'true');
    expect(calls(fetch, 'POST', '/api/admin/users/u1/notes')).toEqual([]);
  });

  it('edits one’s own note in place and says so', async () => {
    const fetch = stubUser({
      'PUT /api/admin/users/u1/notes/n3': (init) => json({ ...mine, ...(bodyOf(init) as object), edited: true }),
    });
    const panel = await notesPanel();
    await userEvent.click(within(panel).getByRole('button', { name: `Edit note of ${formatDateTime(mine.createdAt)}` }));
    const field = within(panel).getByRole('textbox', { name: 'Note' });
    expect(field).toHaveValue(mine.text);
    await userEvent.clear(field);
    await userEvent.type(field, 'Refund agreed.');
    await userEvent.click(within(field.closest('form')!).getByRole('button', { name: 'Save' }));

    await expectNotification('Note saved');
    expect(bodyOf(calls(fetch, 'PUT', '/api/admin/users/u1/notes/n3')[0]![1])).toEqual({ text: 'Refund agreed.' });
    await waitFor(() => expect(within(panel).queryByRole('textbox', { name: 'Note' })).not.toBeInTheDocument());
  });

  it('shows in place why the server refused an edit (the 15 minutes are over), and keeps the text typed', async () => {
    stubUser({
      'PUT /api/admin/users/u1/notes/n3': () => json({ error: 'note_locked', message: NOTE_MESSAGES.noteLocked }, 403, 'Forbidden'),
    });
    const panel = await notesPanel();
    await userEvent.click(within(panel).getByRole('button', { name: `Edit note of ${formatDateTime(mine.createdAt)}` }));
    const field = within(panel).getByRole('textbox', { name: 'Note' });
    await userEvent.type(field, ' More.');
    await userEvent.click(within(field.closest('form')!).getByRole('button', { name: 'Save' }));

    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save the note');
    expect(alert).toHaveTextContent(NOTE_MESSAGES.noteLocked);
    expect(field).toHaveValue(`${mine.text} More.`);
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).queryByRole('textbox', { name: 'Note' })).not.toBeInTheDocument();
  });
});
