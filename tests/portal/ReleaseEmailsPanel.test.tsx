import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { RELEASE_EMAILS_TEXT } from '../../contract/releaseEmails';
import { ReleaseEmailsPanel } from '../../src/portal/dashboard/account/ReleaseEmailsPanel';
import { bodyOf, deferred, json, renderPortal, renderScreen, stubFetch } from './render';

const SWITCH = 'E-mail me when a Sage build for my Unreal Engine version is released';
const TOKEN = 'a'.repeat(43);

function openPanel(
  answer: { enabled: boolean; engines: string[]; addressVerified: boolean },
  save: (init?: RequestInit) => Response | Promise<Response>,
) {
  const spy = stubFetch({ 'GET /api/account/release-emails': () => json(answer), 'PUT /api/account/release-emails': save });
  renderScreen(<ReleaseEmailsPanel />, '/dashboard#account');
  return spy;
}

describe('Release e-mails panel (issue 41)', () => {
  it('is off by default, and says it covers every engine while no install is recorded', async () => {
    openPanel({ enabled: false, engines: [], addressVerified: true }, () => json({ enabled: true, engines: [], addressVerified: true }));
    const region = screen.getByRole('region', { name: 'Release e-mails' });
    const toggle = await within(region).findByRole('switch', { name: SWITCH });
    expect(toggle).not.toBeChecked();
    expect(within(region).getByText(/so that is every engine/)).toBeInTheDocument();
  });

  it('says an unverified address gets no e-mail while it is on', async () => {
    openPanel({ enabled: true, engines: [], addressVerified: false }, () => json({ enabled: false, engines: [], addressVerified: false }));
    expect(await screen.findByText(RELEASE_EMAILS_TEXT.unverified)).toBeInTheDocument();
  });

  it('names the engines of the installs, and turns on from the keyboard with one PUT', async () => {
    const answer = deferred<Response>();
    const spy = openPanel({ enabled: false, engines: ['5.5', '5.6'], addressVerified: true }, () => answer.promise);
    expect(await screen.findByText(/That is Unreal Engine 5\.5 and 5\.6, as your plugin installs report\./)).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: SWITCH });
    const u = userEvent.setup();
    toggle.focus();
    await u.keyboard(' ');
    // Shown on at once, and not pressed twice while it is saved.
    expect(toggle).toBeChecked();
    expect(toggle).toBeDisabled();
    answer.resolve(json({ enabled: true, engines: ['5.5', '5.6'], addressVerified: true }));
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toBeChecked();
    const puts = spy.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(bodyOf(puts[0]![1])).toEqual({ enabled: true });
  });

  it('says so when the choice could not be saved, and shows it as it was', async () => {
    openPanel({ enabled: true, engines: ['5.7'], addressVerified: true }, () =>
      json({ error: 'internal', message: '' }, 500, 'Internal Server Error'),
    );
    const toggle = await screen.findByRole('switch', { name: SWITCH });
    expect(toggle).toBeChecked();
    await userEvent.setup().click(toggle);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be saved|Something went wrong|Internal/);
    expect(toggle).toBeChecked();
  });
});

describe('/unsubscribe/release-emails (the link of a release e-mail)', () => {
  it('changes nothing when opened, and stops the e-mails with the button', async () => {
    const answer = deferred<Response>();
    const spy = stubFetch({
      'GET /api/user': () => json({ error: 'unauthorized', message: 'Authentication required' }, 401),
      'POST /api/release-emails/unsubscribe': () => answer.promise,
    });
    renderPortal(`/unsubscribe/release-emails?token=${TOKEN}`);
    const button = await screen.findByRole('button', { name: RELEASE_EMAILS_TEXT.unsubscribeButton });
    expect(screen.getByRole('heading', { level: 1, name: RELEASE_EMAILS_TEXT.unsubscribeTitle })).toBeInTheDocument();
    expect(spy.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.setup().click(button);
    expect(await screen.findByRole('button', { name: 'Stopping...' })).toBeDisabled();
    answer.resolve(json({ ok: true, message: RELEASE_EMAILS_TEXT.unsubscribed }));
    expect(await screen.findByRole('status')).toHaveTextContent(RELEASE_EMAILS_TEXT.unsubscribed);
    const post = spy.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(String(post![0])).toBe(`/api/release-emails/unsubscribe?token=${TOKEN}`);
  });

  it('says the link is not valid without a token, and when the server does not know it', async () => {
    stubFetch({
      'GET /api/user': () => json({ error: 'unauthorized', message: 'Authentication required' }, 401),
      'POST /api/release-emails/unsubscribe': () => json({ error: 'unknown_token', message: RELEASE_EMAILS_TEXT.unknownLink }, 404),
    });
    const { unmount } = renderPortal('/unsubscribe/release-emails');
    expect(await screen.findByText(RELEASE_EMAILS_TEXT.unknownLink)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: RELEASE_EMAILS_TEXT.unsubscribeButton })).not.toBeInTheDocument();
    unmount();

    renderPortal(`/unsubscribe/release-emails?token=${TOKEN}`);
    await userEvent.setup().click(await screen.findByRole('button', { name: RELEASE_EMAILS_TEXT.unsubscribeButton }));
    expect(await screen.findByRole('alert')).toHaveTextContent(RELEASE_EMAILS_TEXT.unknownLink);
  });
});
