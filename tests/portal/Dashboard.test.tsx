import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DashboardPage } from '../../src/portal/dashboard/DashboardPage';
import { emulatePhoneScreen } from './media';
import { json, renderPortal, renderScreen, stubFetch } from './render';

const user = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };

const stubUser = (body: unknown) =>
  stubFetch({
    'GET /api/user': () => json(body),
    'GET /api/stripe/user-subscriptions': () => json({ error: 'no_subscription', message: 'No subscription found' }, 404),
    'GET /api/stripe/subscription-status': () => json({ ok: true, hasSubscription: false, trialEligible: true, subscriptions: [] }),
  });
const location = () => screen.getByTestId('location');

describe('Dashboard General section', () => {
  it('shows the profile of the signed-in user', async () => {
    stubUser(user);
    renderScreen(<DashboardPage />, '/dashboard#general');
    expect(screen.getByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Profile Information' })).toBeInTheDocument();
    expect(await screen.findByText('ada')).toBeInTheDocument();
    expect(screen.getByText('Username')).toBeInTheDocument();
    expect(screen.getByText('Email')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Account Status')).toBeInTheDocument();
    const chip = screen.getByText('Active').closest('.MuiChip-root');
    expect(chip).toHaveClass('MuiChip-colorDefault');
  });

  it('leaves out a missing e-mail and marks a non-active status as secondary', async () => {
    stubUser({ ...user, email: null, status: 'Suspended' });
    renderScreen(<DashboardPage />, '/dashboard#general');
    expect(await screen.findByText('ada')).toBeInTheDocument();
    expect(screen.queryByText('Email')).not.toBeInTheDocument();
    expect(screen.getByText('Suspended').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSecondary');
  });

  it('shows a skeleton while the user loads', async () => {
    stubFetch({ 'GET /api/user': () => new Promise<Response>(() => {}) });
    renderScreen(<DashboardPage />, '/dashboard#general');
    expect(screen.getByRole('status', { name: 'Loading user information' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Profile Information' })).toBeInTheDocument();
    expect(screen.queryByText('Username')).not.toBeInTheDocument();
  });

  it('says so when the user cannot be loaded, rather than treating the visitor as signed out', async () => {
    stubFetch({ 'GET /api/user': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderPortal('/dashboard#general');
    expect(await screen.findByText('Unable to load user information')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading user information' })).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard#general');
  });

  it('is reached through the signed-in guard', async () => {
    stubUser(user);
    renderPortal('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/dashboard#general$/);
  });
});

describe('Dashboard sections by hash', () => {
  it.each(['/dashboard', '/dashboard#', '/dashboard#billing'])('%s resets to #general', async (path) => {
    stubUser(user);
    renderScreen(<DashboardPage />, path);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/dashboard#general$/));
    expect(screen.getByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
  });

  it('lists the enabled sections and marks the current one', async () => {
    stubUser(user);
    renderScreen(<DashboardPage />, '/dashboard#general');
    const nav = screen.getByRole('navigation', { name: 'Dashboard sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['General', 'Subscriptions', 'Usage', 'Organisations', 'Account']);
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    expect(links[0]).toHaveAttribute('href', '/dashboard#general');
    expect(links[1]).not.toHaveAttribute('aria-current');
    expect(links[1]).toHaveAttribute('href', '/dashboard#subscriptions');
  });

  it('shows the Subscriptions section at #subscriptions and goes back to General from the sidebar', async () => {
    stubUser(user);
    renderScreen(<DashboardPage />, '/dashboard#subscriptions');
    expect(screen.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/dashboard#subscriptions$/);
    const nav = screen.getByRole('navigation', { name: 'Dashboard sections' });
    expect(within(nav).getByRole('link', { name: 'Subscriptions' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { name: 'No Active Subscriptions' })).toBeInTheDocument();

    await userEvent.setup().click(within(nav).getByRole('link', { name: 'General' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/dashboard#general$/);
  });
});

// The layout switches in CSS (@media, max-width 768 px), which jsdom does not evaluate: here the
// Menu button is found whatever its display, and the drawer is told apart by its dialog.
const menuButton = () => screen.getByRole('button', { name: 'Menu', hidden: true });

describe('Dashboard on a phone', () => {
  it('opens the sidebar from Menu and closes it when a section is chosen', async () => {
    emulatePhoneScreen();
    stubUser(user);
    const u = userEvent.setup();
    renderScreen(<DashboardPage />, '/dashboard#subscriptions');

    const menu = menuButton();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('dialog', { name: 'Dashboard menu' })).not.toBeInTheDocument();

    await u.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    const drawer = screen.getByRole('dialog', { name: 'Dashboard menu' });
    const nav = within(drawer).getByRole('navigation', { name: 'Dashboard sections' });
    expect(document.querySelector('.MuiBackdrop-root')).toBeInTheDocument();

    await u.click(within(nav).getByRole('link', { name: 'General' }));
    expect(location()).toHaveTextContent(/^\/dashboard#general$/);
    await waitFor(() => expect(menuButton()).toHaveAttribute('aria-expanded', 'false'));
    // The page is hidden from assistive technology until the drawer's closing transition ends.
    expect(await screen.findByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
  });

  it('closes the sidebar with Escape', async () => {
    emulatePhoneScreen();
    stubUser(user);
    const u = userEvent.setup();
    renderScreen(<DashboardPage />, '/dashboard#general');
    await u.click(menuButton());
    const drawer = screen.getByRole('dialog', { name: 'Dashboard menu' });
    expect(within(drawer).getByRole('navigation', { name: 'Dashboard sections' })).toBeInTheDocument();
    await u.keyboard('{Escape}');
    await waitFor(() => expect(menuButton()).toHaveAttribute('aria-expanded', 'false'));
  });
});
