import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as Ceremonies from '@simplewebauthn/browser';
import { describe, expect, it, vi } from 'vitest';
import { PASSKEY_MESSAGES, type Passkey } from '../../contract/passkeys';
import { PasskeysPanel } from '../../src/portal/dashboard/account/PasskeysPanel';
import { bodyOf, expectToast, json, renderScreen, stubFetch } from './render';

/** The browser's ceremony: jsdom has no WebAuthn. */
const startRegistration = vi.hoisted(() => vi.fn<typeof Ceremonies.startRegistration>());
vi.mock('@simplewebauthn/browser', async (importOriginal) => ({ ...(await importOriginal<typeof Ceremonies>()), startRegistration }));

const laptop: Passkey = {
  id: 'Y3JlZC0x',
  name: 'Work laptop',
  synced: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
};
const phone: Passkey = { ...laptop, id: 'Y3JlZC0y', name: 'Phone', synced: true, lastUsedAt: '2026-11-28T09:30:00.000Z' };

function openPanel(routes: Parameters<typeof stubFetch>[0] = {}, passkeys: Passkey[] = [phone, laptop]) {
  const spy = stubFetch({
    'GET /api/account/password': () => json({ hasPassword: true }),
    'GET /api/account/passkeys': () => json({ passkeys }),
    ...routes,
  });
  renderScreen(<PasskeysPanel />, '/dashboard#account');
  return spy;
}

describe('Passkeys panel (issue 40)', () => {
  it('lists the passkeys, the synced one marked, each with when it was added and last used', async () => {
    openPanel();
    const panel = await screen.findByRole('region', { name: 'Passkeys' });
    const items = await within(panel).findAllByRole('listitem');
    expect(items.map((item) => within(item).getByText(/^(Phone|Work laptop)$/).textContent)).toEqual(['Phone', 'Work laptop']);
    expect(within(items[0]!).getByText('Synced')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/Last used/)).toBeInTheDocument();
    expect(within(items[0]!).queryByText('Never used')).toBeNull();
    expect(within(items[1]!).getByText('Never used')).toBeInTheDocument();
    expect(within(panel).getByLabelText(/^Passkey name/)).toBeRequired();
    expect(within(panel).getByRole('button', { name: 'Add a passkey' })).toBeEnabled();
  });

  it('says when there is none yet', async () => {
    openPanel({}, []);
    expect(await screen.findByText('You have no passkey yet.')).toBeInTheDocument();
  });

  it('is not shown to an account without a password, and asks nothing about passkeys', async () => {
    const spy = stubFetch({ 'GET /api/account/password': () => json({ hasPassword: false }) });
    renderScreen(<PasskeysPanel />, '/dashboard#account');
    await waitFor(() => expect(spy).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByRole('status', { name: 'Loading your passkeys' })).not.toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Passkeys' })).not.toBeInTheDocument();
    expect(spy.mock.calls.map(([url]) => String(url))).not.toContain('/api/account/passkeys');
  });

  it('asks for a name before any ceremony starts', async () => {
    const spy = openPanel();
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(spy.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
  });

  it('removes a passkey with the password, and says so when the password is wrong', async () => {
    let attempts = 0;
    const spy = openPanel({
      'DELETE /api/account/passkeys/Y3JlZC0x': () =>
        (attempts += 1) === 1
          ? json({ error: 'wrong_password', message: PASSKEY_MESSAGES.wrongPassword }, 400, 'Bad Request')
          : json({ ok: true }),
    });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Remove Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove "Work laptop"?' });
    await u.type(within(dialog).getByLabelText(/^Password/), 'wrong one');
    await u.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(dialog).findByText(PASSKEY_MESSAGES.wrongPassword)).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getByLabelText(/^Password/)).toHaveFocus());

    await u.clear(within(dialog).getByLabelText(/^Password/));
    await u.type(within(dialog).getByLabelText(/^Password/), 'the right one');
    await u.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    await expectToast('Passkey removed', '"Work laptop" can no longer sign in to your account.');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const deletes = spy.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(deletes.map(([, init]) => bodyOf(init))).toEqual([{ password: 'wrong one' }, { password: 'the right one' }]);
  });

  it("shows the recovery codes once when the passkey is the account's first second factor", async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ijkl-mno${i}`);
    const registration = {
      id: 'Y3JlZC0z',
      rawId: 'Y3JlZC0z',
      type: 'public-key' as const,
      response: { clientDataJSON: 'e30', attestationObject: 'AA' },
      clientExtensionResults: {},
    };
    startRegistration.mockResolvedValue(registration);
    const spy = openPanel(
      {
        'POST /api/account/passkeys/options': () => json({ challenge: 'Y2hhbGxlbmdl' }),
        'POST /api/account/passkeys': () =>
          json({ ok: true, passkey: { ...laptop, id: 'Y3JlZC0z', name: 'Desk' }, recoveryCodes: codes }, 201),
      },
      [],
    );
    const u = userEvent.setup();
    await u.type(await screen.findByLabelText(/^Passkey name/), 'Desk');
    await u.click(screen.getByRole('button', { name: 'Add a passkey' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(bodyOf(spy.mock.calls.find(([url, init]) => String(url) === '/api/account/passkeys' && init?.method === 'POST')?.[1])).toEqual({
      name: 'Desk',
      response: registration,
    });
    await u.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
  });
});
