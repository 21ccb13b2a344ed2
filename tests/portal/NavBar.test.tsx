import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NavBar } from '../../src/portal/NavBar';
import { emulatePhoneScreen } from './media';
import { json, renderScreen, stubFetch } from './render';

const signedInUser = { id: 'u1', username: 'ada', email: 'ada@example.com', status: 'Active', isAdmin: false };

const signedOut = () => stubFetch({ 'GET /api/user': () => json({ error: 'unauthorized', message: 'Not signed in' }, 401) });
const signedIn = () => stubFetch({ 'GET /api/user': () => json(signedInUser) });
const signedInAdmin = () => stubFetch({ 'GET /api/user': () => json({ ...signedInUser, isAdmin: true }) });

describe('NavBar', () => {
  it('shows the marketing links, Download and a Login button to an anonymous visitor', async () => {
    signedOut();
    renderScreen(<NavBar />, '/download');

    expect(await screen.findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'About' })).toHaveAttribute('href', 'https://sage.test/about');
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', 'https://sage.test/pricing');
    expect(within(nav).getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', 'https://sage.test/contact');
    expect(within(nav).getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/download');
    expect(screen.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('leads the logo to the marketing home', async () => {
    signedOut();
    renderScreen(<NavBar />);

    expect(screen.getByRole('link', { name: 'Sage home' })).toHaveAttribute('href', 'https://sage.test');
    await screen.findByRole('link', { name: 'Login' });
  });

  it('marks Download as the current page on the download page', async () => {
    signedOut();
    renderScreen(<NavBar />, '/download');

    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('aria-current', 'page');
    await screen.findByRole('link', { name: 'Login' });
  });

  it('shows neither Login nor Logout while the user is loading', () => {
    stubFetch({ 'GET /api/user': () => new Promise<Response>(() => {}) });
    renderScreen(<NavBar />);

    expect(screen.getByRole('link', { name: 'Download' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('offers Dashboard and a Logout that leaves through the server to a signed-in user', async () => {
    signedIn();
    renderScreen(<NavBar />);

    expect(await screen.findByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('offers an admin the console as Admin, after Dashboard', async () => {
    signedInAdmin();
    renderScreen(<NavBar />);

    await screen.findByRole('link', { name: 'Logout' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    const labels = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toEqual(['About', 'Pricing', 'Contact Us', 'Download', 'Dashboard', 'Admin', 'Logout']);
  });

  it('shows no Admin link to a user who is not an admin, nor to a visitor', async () => {
    signedIn();
    const { unmount } = renderScreen(<NavBar />);
    await screen.findByRole('link', { name: 'Logout' });
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    unmount();

    signedOut();
    renderScreen(<NavBar />);
    await screen.findByRole('link', { name: 'Login' });
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('hides the links but keeps the logo when showNavigation is false', async () => {
    const fetchSpy = signedOut();
    renderScreen(<NavBar showNavigation={false} />);

    await waitFor(() => expect(fetchSpy).toHaveBeenCalled());
    expect(screen.getByRole('link', { name: 'Sage home' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    for (const name of ['About', 'Pricing', 'Contact Us', 'Download', 'Login']) {
      expect(screen.queryByRole('link', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByLabelText('Open menu')).not.toBeInTheDocument();
  });

  // The bar switches to the menu button in CSS (@media, max-width 768 px), which jsdom does not
  // evaluate: here the button is found whatever its display; tests/e2e/mobile-nav.test.ts checks in
  // Chromium at 375 px that only the button shows.
  const menuButton = () => screen.getByLabelText('Open menu', { selector: 'button' });

  describe('on a screen of 768 px or less', () => {
    it('keeps the links in a drawer until the menu button opens it', async () => {
      emulatePhoneScreen();
      signedOut();
      const user = userEvent.setup();
      renderScreen(<NavBar />, '/download');

      expect(menuButton()).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();

      await user.click(menuButton());
      expect(menuButton()).toHaveAttribute('aria-expanded', 'true');

      const drawer = await screen.findByRole('dialog', { name: 'Menu' });
      expect(within(drawer).getByRole('link', { name: 'About' })).toHaveAttribute('href', 'https://sage.test/about');
      expect(within(drawer).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', 'https://sage.test/pricing');
      expect(within(drawer).getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', 'https://sage.test/contact');
      expect(within(drawer).getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/download');
      expect(await within(drawer).findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    });

    it('shows Dashboard and Logout in the drawer to a signed-in user', async () => {
      emulatePhoneScreen();
      signedIn();
      const user = userEvent.setup();
      renderScreen(<NavBar />);

      await user.click(menuButton());

      const drawer = await screen.findByRole('dialog', { name: 'Menu' });
      expect(await within(drawer).findByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/api/logout');
      expect(within(drawer).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    });

    it('shows Admin in the drawer to an admin', async () => {
      emulatePhoneScreen();
      signedInAdmin();
      const user = userEvent.setup();
      renderScreen(<NavBar />);

      await user.click(menuButton());

      const drawer = await screen.findByRole('dialog', { name: 'Menu' });
      await within(drawer).findByRole('link', { name: 'Logout' });
      expect(within(drawer).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    });

    it('closes the drawer when a link in it is clicked', async () => {
      emulatePhoneScreen();
      signedOut();
      const user = userEvent.setup();
      renderScreen(<NavBar />, '/support');

      await user.click(menuButton());
      const drawer = await screen.findByRole('dialog', { name: 'Menu' });
      await user.click(within(drawer).getByRole('link', { name: 'Download' }));

      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
      expect(screen.getByTestId('location')).toHaveTextContent('/download');
    });

    it('closes the drawer with its Close menu button', async () => {
      emulatePhoneScreen();
      signedOut();
      const user = userEvent.setup();
      renderScreen(<NavBar />);

      await user.click(menuButton());
      const drawer = await screen.findByRole('dialog', { name: 'Menu' });
      await user.click(within(drawer).getByRole('button', { name: 'Close menu' }));

      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument());
    });
  });
});
