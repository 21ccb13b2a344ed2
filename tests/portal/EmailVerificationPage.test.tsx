import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as BrowserModule from '../../src/browser';
import { assignLocation } from '../../src/browser';
import { EmailVerificationPage } from '../../src/portal/epicSignIn/EmailVerificationPage';
import { sentFlagKey } from '../../src/portal/epicSignIn/useEmailVerification';
import { bodyOf, currentLocation, deferred, expectToast, installFakeTimers, json, renderPortal, renderScreen, stubFetch } from './render';

vi.mock('../../src/browser', async (importOriginal) => {
  const actual = await importOriginal<typeof BrowserModule>();
  return { ...actual, assignLocation: vi.fn(), closeWindow: vi.fn() };
});

const SEND = '/api/email/send-verification';
const RESEND = '/api/email/resend-verification';
const STATUS = '/api/email/check-verification-status';
const EMAIL = 'ada@example.com';
const PAGE = `/email-verification?email=${encodeURIComponent(EMAIL)}`;

type Respond = () => Response | Promise<Response>;
const sent: Respond = () => json({ ok: true, message: 'Verification email sent', code: 'sent' });
const pending: Respond = () => json({ ok: true, verified: false, message: 'Not verified yet' });

function stubVerification({ send = sent, resend = sent, status = pending }: { send?: Respond; resend?: Respond; status?: Respond } = {}) {
  const spy = stubFetch({
    'GET /api/user': () => json({ error: 'Unauthorized', message: 'Not signed in' }, 401),
    [`POST ${SEND}`]: send,
    [`POST ${RESEND}`]: resend,
    [`POST ${STATUS}`]: status,
  });
  const count = (path: string) => spy.mock.calls.filter(([input]) => String(input) === path).length;
  return { spy, sends: () => count(SEND), resends: () => count(RESEND), polls: () => count(STATUS) };
}

/** Moves the fake clock, running the page's timers and the promises they start. */
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const resendButton = () => screen.getByRole('button', { name: /^(Resend Email|Sending\.\.\.)/ });
const clickUser = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

beforeEach(() => {
  sessionStorage.clear();
  vi.mocked(assignLocation).mockClear();
  installFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('EmailVerificationPage first visit (§4 Email verification, §9)', () => {
  it('sends one e-mail, sets the per-address flag and says so', async () => {
    const api = stubVerification();
    renderScreen(<EmailVerificationPage />, PAGE);
    expect(screen.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeInTheDocument();
    await advance(0);
    expect(api.sends()).toBe(1);
    expect(bodyOf(api.spy.mock.calls[0]?.[1])).toEqual({ email: EMAIL });
    expect(sessionStorage.getItem(sentFlagKey(EMAIL))).toBeTruthy();
    expect(sessionStorage.getItem(sentFlagKey('grace@example.com'))).toBeNull();
    await expectToast('Email Sent');
    expect(screen.getByText(/waiting for you to open the link we sent to ada@example\.com/i)).toBeInTheDocument();
  });

  it('mails nothing and goes straight to the status when the address is already verified', async () => {
    const api = stubVerification({
      send: () => json({ ok: true, message: 'Email already verified', code: 'already_verified' }),
      status: () => json({ ok: true, verified: true, message: 'Email verified' }),
    });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    expect(resendButton()).toHaveAccessibleName('Resend Email');
    await advance(1000);
    expect(api.polls()).toBe(1);
    await expectToast('Email Verified!', 'Your Epic account has been successfully linked.');
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/callback-internal');
  });

  it('keeps Resend Email disabled while the first mail is on its way', async () => {
    const first = deferred<Response>();
    const api = stubVerification({ send: () => first.promise });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    expect(resendButton()).toBeDisabled();
    await clickUser()
      .click(resendButton())
      .catch(() => undefined);
    expect(api.resends()).toBe(0);
    first.resolve(await sent());
    await advance(0);
    expect(resendButton()).toHaveAccessibleName('Resend Email (60s)');
    expect(resendButton()).toBeDisabled();
  });

  it('polls the status first after 1 s, then every 3 s', async () => {
    const api = stubVerification();
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    await advance(999);
    expect(api.polls()).toBe(0);
    await advance(1);
    expect(api.polls()).toBe(1);
    expect(bodyOf(api.spy.mock.calls.find(([input]) => String(input) === STATUS)?.[1])).toEqual({ email: EMAIL });
    await advance(2999);
    expect(api.polls()).toBe(1);
    await advance(1);
    expect(api.polls()).toBe(2);
    await advance(3000);
    expect(api.polls()).toBe(3);
    await advance(9000);
    expect(api.polls()).toBe(6);
    expect(api.sends()).toBe(1);
  });

  it('does not send again on a reload (a second mount) for the same address', async () => {
    const api = stubVerification();
    const first = renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    first.unmount();
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    expect(api.sends()).toBe(1);
    await advance(1000);
    expect(api.polls()).toBe(1);
  });

  it('with the flag already set only watches: no send, no toast, polls from 1 s', async () => {
    sessionStorage.setItem(sentFlagKey(EMAIL), '1');
    const api = stubVerification();
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(999);
    expect(api.sends()).toBe(0);
    expect(api.polls()).toBe(0);
    await advance(1);
    expect(api.polls()).toBe(1);
    expect(screen.getByRole('region', { name: /notifications/i })).not.toHaveTextContent('Email Sent');
  });

  it('sends once under StrictMode', async () => {
    const api = stubVerification();
    renderScreen(<EmailVerificationPage />, PAGE, { strict: true });
    await advance(0);
    expect(api.sends()).toBe(1);
    await expectToast('Email Sent');
    await advance(1000);
    expect(api.polls()).toBe(1);
  });

  it('a failed send says so, clears the flag and returns to the link page', async () => {
    const api = stubVerification({ send: () => json({ error: 'Bad Request', message: 'No Epic sign-in is waiting' }, 400) });
    renderScreen(<EmailVerificationPage />, `${PAGE}&client=ue`);
    await advance(0);
    await expectToast('Failed to Send Verification', 'No Epic sign-in is waiting');
    expect(sessionStorage.getItem(sentFlagKey(EMAIL))).toBeNull();
    expect(currentLocation()).toBe('/epic_account_link?client=ue');
    await advance(10_000);
    expect(api.polls()).toBe(0);
  });
});

describe('EmailVerificationPage outcomes', () => {
  it('verified: toasts, goes to the internal callback and stops polling', async () => {
    let verified = false;
    const api = stubVerification({ status: () => json({ ok: true, verified, message: verified ? 'Verified' : 'Pending' }) });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(1000);
    expect(assignLocation).not.toHaveBeenCalled();
    verified = true;
    await advance(3000);
    await expectToast('Email Verified!', 'Your Epic account has been successfully linked.');
    expect(assignLocation).toHaveBeenCalledTimes(1);
    expect(assignLocation).toHaveBeenCalledWith('/api/auth/callback-internal');
    expect(api.polls()).toBe(2);
    expect(resendButton()).toBeDisabled();
    await advance(30_000);
    expect(api.polls()).toBe(2);
    expect(assignLocation).toHaveBeenCalledTimes(1);
  });

  it('expired (410): says Verification Expired and stops polling', async () => {
    const api = stubVerification({
      status: () => json({ error: 'verification_expired', message: 'Verification code has expired' }, 410, 'Gone'),
    });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(1000);
    await expectToast('Verification Expired');
    expect(screen.getByText(/expired\. Resend the email to get a new one/i)).toBeInTheDocument();
    await advance(30_000);
    expect(api.polls()).toBe(1);
    expect(assignLocation).not.toHaveBeenCalled();
  });

  it('a refused status check shows the server message and stops polling', async () => {
    const api = stubVerification({ status: () => json({ error: 'Forbidden', message: 'This browser did not start the link' }, 403) });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(1000);
    expect(screen.getByRole('alert')).toHaveTextContent('This browser did not start the link');
    await advance(30_000);
    expect(api.polls()).toBe(1);
  });

  it('keeps polling through server errors', async () => {
    const api = stubVerification({ status: () => new Response('', { status: 503, statusText: 'Service Unavailable' }) });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(7000);
    expect(api.polls()).toBe(3);
  });
});

describe('EmailVerificationPage Resend (§4, §9 cooldown 60 s)', () => {
  it('is disabled with a countdown for 60 s after the send', async () => {
    stubVerification();
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    expect(resendButton()).toHaveAccessibleName('Resend Email (60s)');
    expect(resendButton()).toBeDisabled();
    await advance(1000);
    expect(resendButton()).toHaveAccessibleName('Resend Email (59s)');
    await advance(58_000);
    expect(resendButton()).toHaveAccessibleName('Resend Email (1s)');
    expect(resendButton()).toBeDisabled();
    await advance(1000);
    expect(resendButton()).toHaveAccessibleName('Resend Email');
    expect(resendButton()).toBeEnabled();
  });

  it('resends with polling paused meanwhile, then polls again after 1 s', async () => {
    const answer = deferred<Response>();
    const api = stubVerification({ resend: () => answer.promise });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(60_000);
    const pollsBefore = api.polls();
    expect(pollsBefore).toBe(20);

    await clickUser().click(resendButton());
    expect(api.resends()).toBe(1);
    expect(bodyOf(api.spy.mock.calls.find(([input]) => String(input) === RESEND)?.[1])).toEqual({ email: EMAIL });
    expect(resendButton()).toHaveAccessibleName('Sending...');
    expect(resendButton()).toBeDisabled();
    await advance(10_000);
    expect(api.polls()).toBe(pollsBefore);

    answer.resolve(json({ ok: true, message: 'Sent again', code: 'sent' }));
    await advance(0);
    await expectToast('Email Resent');
    expect(resendButton()).toHaveAccessibleName('Resend Email (60s)');
    expect(resendButton()).toBeDisabled();
    await advance(999);
    expect(api.polls()).toBe(pollsBefore);
    await advance(1);
    expect(api.polls()).toBe(pollsBefore + 1);
    await advance(3000);
    expect(api.polls()).toBe(pollsBefore + 2);
    expect(api.sends()).toBe(1);
  });

  it('ignores a status answer that was on its way when the resend started', async () => {
    let held: ReturnType<typeof deferred<Response>> | null = null;
    const api = stubVerification({ status: () => (held ? held.promise : pending()) });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(60_000);
    held = deferred<Response>();
    const answer = held;
    await advance(1000); // The 21st check leaves and waits for its answer.
    expect(api.polls()).toBe(21);
    held = null;

    await clickUser().click(resendButton());
    await advance(0);
    await expectToast('Email Resent');
    answer.resolve(json({ error: 'verification_expired', message: 'Verification code has expired' }, 410));
    await advance(0);
    // The old code's answer neither ends the watch nor reschedules it: the next check is 1 s after the resend.
    expect(screen.getByText(/waiting for you to open the link/i)).toBeInTheDocument();
    await advance(1000);
    expect(api.polls()).toBe(22);
    await advance(3000);
    expect(api.polls()).toBe(23);
  });

  it('a failed resend shows the server message and lets the user try again', async () => {
    const api = stubVerification({
      resend: () => json({ error: 'Too Many Requests', message: 'Please wait before asking for another email' }, 429),
    });
    sessionStorage.setItem(sentFlagKey(EMAIL), '1'); // A reload: no cooldown runs on this page.
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(0);
    expect(resendButton()).toBeEnabled();
    await clickUser().click(resendButton());
    await advance(0);
    await expectToast('Resend Failed', 'Please wait before asking for another email');
    expect(resendButton()).toHaveAccessibleName('Resend Email');
    expect(resendButton()).toBeEnabled();
    const polls = api.polls();
    await advance(1000);
    expect(api.polls()).toBe(polls + 1);
  });

  it('after an expired link a resend starts polling again', async () => {
    let expired = true;
    const api = stubVerification({
      status: () => (expired ? json({ error: 'verification_expired', message: 'Verification code has expired' }, 410) : pending()),
    });
    renderScreen(<EmailVerificationPage />, PAGE);
    await advance(60_000);
    expect(api.polls()).toBe(1);
    expired = false;
    await clickUser().click(resendButton());
    await advance(0);
    await expectToast('Email Resent');
    expect(screen.getByText(/waiting for you to open the link we sent to ada@example\.com/i)).toBeInTheDocument();
    await advance(1000);
    expect(api.polls()).toBe(2);
  });
});

describe('EmailVerificationPage navigation and variants', () => {
  it('Back to Account Linking returns to the link page for the client', async () => {
    stubVerification();
    renderScreen(<EmailVerificationPage />, `${PAGE}&client=ue`);
    await advance(0);
    await clickUser().click(screen.getByRole('button', { name: 'Back to Account Linking' }));
    expect(currentLocation()).toBe('/epic_account_link?client=ue');
  });

  it('/email-verification-preview renders the same page', async () => {
    const api = stubVerification();
    renderPortal(`/email-verification-preview?email=${encodeURIComponent(EMAIL)}`);
    await advance(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText(EMAIL, { selector: 'strong' })).toBeInTheDocument();
    expect(api.sends()).toBe(1);
    expect(resendButton()).toBeInTheDocument();
  });

  it.each(['/email-verification', '/email-verification?email=%20%20'])('%s without an address warns and sends nothing', async (path) => {
    const api = stubVerification();
    renderPortal(path);
    await advance(5000);
    expect(screen.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText(/needs the email address/i)).toBeInTheDocument();
    expect(api.sends() + api.polls()).toBe(0);
    expect(screen.queryByRole('button', { name: /Resend Email/ })).not.toBeInTheDocument();
    await clickUser().click(screen.getByRole('button', { name: 'Back to Account Linking' }));
    expect(currentLocation()).toBe('/epic_account_link?client=web');
  });
});
