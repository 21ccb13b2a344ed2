import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LicensePanel } from '../../src/portal/dashboard/account/LicensePanel';
import { deferred, expectToast, json, renderScreen, stubFetch } from './render';

const REISSUED = 'Your license was reissued. Every Sage install must sign in again.';

function openPanel(reissue: () => Response | Promise<Response> = () => json({ ok: true, message: REISSUED })) {
  const spy = stubFetch({ 'POST /api/account/license/reissue': reissue });
  renderScreen(<LicensePanel />, '/dashboard#account');
  return spy;
}

async function askToReissue() {
  const u = userEvent.setup();
  await u.click(screen.getByRole('button', { name: 'Reissue my license' }));
  return { u, dialog: await screen.findByRole('dialog', { name: 'Reissue your license?' }) };
}

describe('License panel (issue 27)', () => {
  it('explains what reissuing does, under its heading', () => {
    openPanel();
    expect(screen.getByRole('region', { name: 'License' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'License' })).toBeInTheDocument();
    expect(screen.getByText(/every install must sign in again/)).toBeInTheDocument();
  });

  it('asks first, saying that every install must sign in again; Cancel changes nothing', async () => {
    const spy = openPanel();
    const { u, dialog } = await askToReissue();
    expect(dialog).toHaveAccessibleDescription(/Every Sage plugin install must sign in again.*This cannot be undone\./);
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(spy).not.toHaveBeenCalled();
  });

  it('closes on Escape, from the keyboard alone', async () => {
    const spy = openPanel();
    const u = userEvent.setup();
    screen.getByRole('button', { name: 'Reissue my license' }).focus();
    await u.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Reissue your license?' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await u.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(spy).not.toHaveBeenCalled();
  });

  it('reissues once confirmed: busy while it is sent, then says so', async () => {
    const answer = deferred<Response>();
    const spy = openPanel(() => answer.promise);
    const { u, dialog } = await askToReissue();
    await u.click(within(dialog).getByRole('button', { name: 'Reissue license' }));

    expect(await within(dialog).findByRole('button', { name: 'Reissuing...' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    answer.resolve(json({ ok: true, message: REISSUED }));

    await expectToast('License reissued', REISSUED);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[1]?.method).toBe('POST');
  });

  it('says a refusal in the dialog, in the server’s words, and keeps it open', async () => {
    openPanel(() =>
      json({ error: 'rate_limited', message: 'Too many license reissues. Please try again later.' }, 429, 'Too Many Requests'),
    );
    const { u, dialog } = await askToReissue();
    await u.click(within(dialog).getByRole('button', { name: 'Reissue license' }));
    expect(await within(dialog).findByText('Too many license reissues. Please try again later.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reissue your license?' })).toBeInTheDocument();
  });
});
