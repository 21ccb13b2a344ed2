// The e-mail change link opened in a browser that is not signed in (issue 27): the server sends it
// to /login?emailChange=<outcome>, where the sign-in page says how it went, in the dashboard's words.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_OUTCOMES, type EmailChangeOutcome } from '../../contract/accountEmail';
import { LoginPage } from '../../src/portal/LoginPage';
import { renderScreen } from './render';

const FAILURES = Object.keys(EMAIL_CHANGE_OUTCOMES).filter((o) => o !== 'changed') as EmailChangeOutcome[];

describe('the sign-in page after an e-mail change link', () => {
  it('says the e-mail changed, takes the focus, and offers to sign in', async () => {
    renderScreen(<LoginPage />, '/login?emailChange=changed');
    const notice = await screen.findByRole('status', { name: 'E-mail changed' });
    expect(notice).toHaveTextContent(EMAIL_CHANGE_OUTCOMES.changed.message);
    expect(screen.getByRole('heading', { level: 2, name: 'E-mail changed' })).toBeInTheDocument();
    // Focused by the notice's effect, which React may run a task after the notice is drawn.
    await waitFor(() => expect(notice).toHaveFocus());
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in to Sage' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with e-mail' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Epic' })).toBeInTheDocument();
  });

  it.each(FAILURES)('says the e-mail was not changed, and why, for %s', async (outcome) => {
    renderScreen(<LoginPage />, `/login?emailChange=${outcome}`);
    const notice = await screen.findByRole('alert', { name: 'E-mail not changed' });
    expect(notice).toHaveTextContent(EMAIL_CHANGE_OUTCOMES[outcome].message);
    // Focused by the notice's effect, which React may run a task after the notice is drawn.
    await waitFor(() => expect(notice).toHaveFocus());
    expect(screen.queryByRole('status', { name: 'E-mail changed' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with e-mail' })).toBeInTheDocument();
  });

  it('says nothing for another value, nor without one', async () => {
    const { unmount } = renderScreen(<LoginPage />, '/login?emailChange=<b>hacked</b>');
    await screen.findByRole('heading', { level: 1, name: 'Sign in to Sage' });
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(screen.queryByText(/^E-mail (not )?changed$/)).not.toBeInTheDocument();
    unmount();
    renderScreen(<LoginPage />, '/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in to Sage' });
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
  });
});
