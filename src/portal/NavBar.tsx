import { AppBar, Box, Button, IconButton, Link, Stack, Toolbar, Typography } from '@mui/material';
import { lazy, Suspense, useId, useState } from 'react';
import { NavLink } from 'react-router-dom';
import { reset, track } from '../analytics';
import { useCurrentUser } from '../authProvider/session';
import { useRuntimeConfig } from '../runtimeConfig';
import { MOBILE_MEDIA_QUERY } from '../ui/theme';
import { MenuIcon, SageMarkIcon } from '../ui/icons';
import { navItems, type NavItem, type SessionAction } from './navItems';

/** The phone menu: its own chunk (MUI's Drawer and Modal), downloaded when the menu first opens. */
const MenuDrawer = lazy(() => import('./MenuDrawer').then((m) => ({ default: m.MenuDrawer })));

// The bar's layout follows the screen width in CSS, not in JavaScript: a page rendered on the
// server shows the right one before the app runs, and nothing moves when it does.
const ON_PHONE = `@media ${MOBILE_MEDIA_QUERY}`;
const desktopOnly = { display: 'flex', alignItems: 'center', gap: 2, [ON_PHONE]: { display: 'none' } } as const;
const phoneOnly = { display: 'none', [ON_PHONE]: { display: 'inline-flex' } } as const;

function Logo({ href }: { href: string }) {
  return (
    <Link
      href={href}
      aria-label="Sage home"
      underline="none"
      color="inherit"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexShrink: 0 }}
    >
      <SageMarkIcon color="primary" aria-hidden />
      <Typography component="span" variant="h6" sx={{ fontWeight: 700 }}>
        Sage
      </Typography>
    </Link>
  );
}

/** Desktop: a row of text buttons; route links mark the current page with aria-current. */
function InlineLinks({ items }: { items: NavItem[] }) {
  return (
    <Stack direction="row" spacing={0.5} component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {items.map((item) => (
        <li key={item.label}>
          {item.kind === 'external' ? (
            <Button color="inherit" href={item.href}>
              {item.label}
            </Button>
          ) : (
            <Button color="inherit" component={NavLink} to={item.to} sx={{ '&[aria-current="page"]': { color: 'primary.main' } }}>
              {item.label}
            </Button>
          )}
        </li>
      ))}
    </Stack>
  );
}

export function SessionButton({ action, onNavigate, fullWidth }: { action: SessionAction; onNavigate?: () => void; fullWidth?: boolean }) {
  if (action === 'none') {
    // While the user loads: the Login button's room, kept empty and hidden, so nothing shifts when it appears.
    return (
      <Button variant="contained" aria-hidden tabIndex={-1} sx={{ visibility: 'hidden' }} fullWidth={fullWidth}>
        Login
      </Button>
    );
  }
  if (action === 'login') {
    return (
      <Button
        variant="contained"
        component={NavLink}
        to="/login"
        onClick={() => {
          track('Button Click', { button: 'Login', screen: 'navigation' });
          onNavigate?.();
        }}
        fullWidth={fullWidth}
      >
        Login
      </Button>
    );
  }
  if (action === 'logout') {
    // A full page navigation: the server ends the session and redirects to /, so no cached user survives.
    return (
      <Button
        variant="contained"
        href="/api/logout"
        onClick={() => {
          track('User Logout');
          reset();
          onNavigate?.();
        }}
        fullWidth={fullWidth}
      >
        Logout
      </Button>
    );
  }
}

/** §2 Top navigation bar. `showNavigation={false}` keeps only the logo. */
export function NavBar({ showNavigation = true }: { showNavigation?: boolean }) {
  const { marketingUrl } = useRuntimeConfig();
  const { data: user, isPending } = useCurrentUser();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Mounted from the first opening on, so closing slides it out as before.
  const [drawerUsed, setDrawerUsed] = useState(false);
  const drawerId = useId();

  // The same reading of the user query as the route guards: pending → neither button, error → signed out.
  const action: SessionAction = isPending ? 'none' : user ? 'logout' : 'login';

  const items = navItems(marketingUrl, user);

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Logo href={marketingUrl} />
        <Box sx={{ flexGrow: 1 }} />
        {showNavigation && (
          <Box component="nav" aria-label="Main" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Box sx={desktopOnly}>
              <InlineLinks items={items} />
              <SessionButton action={action} />
            </Box>
            <IconButton
              edge="end"
              color="inherit"
              aria-label="Open menu"
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              aria-controls={drawerOpen ? drawerId : undefined}
              onClick={() => {
                setDrawerUsed(true);
                setDrawerOpen(true);
              }}
              sx={phoneOnly}
            >
              <MenuIcon />
            </IconButton>
          </Box>
        )}
      </Toolbar>
      {showNavigation && drawerUsed && (
        <Suspense fallback={null}>
          <MenuDrawer id={drawerId} open={drawerOpen} items={items} action={action} onClose={() => setDrawerOpen(false)} />
        </Suspense>
      )}
    </AppBar>
  );
}
