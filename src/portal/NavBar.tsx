import {
  AppBar,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  Link,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Stack,
  Toolbar,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useId, useState } from 'react';
import { NavLink } from 'react-router';
import { reset, track } from '../analytics';
import { useCurrentUser } from '../authProvider/session';
import { useRuntimeConfig } from '../runtimeConfig';
import { MOBILE_MEDIA_QUERY } from '../ui/theme';
import { CloseIcon, MenuIcon, SageMarkIcon } from '../ui/icons';

type NavItem =
  | { kind: 'external'; label: string; href: string }
  | { kind: 'route'; label: string; to: string };

type SessionAction = 'login' | 'logout' | 'none';

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
            <Button
              color="inherit"
              component={NavLink}
              to={item.to}
              sx={{ '&[aria-current="page"]': { color: 'primary.main' } }}
            >
              {item.label}
            </Button>
          )}
        </li>
      ))}
    </Stack>
  );
}

function SessionButton({ action, onNavigate, fullWidth }: { action: SessionAction; onNavigate?: () => void; fullWidth?: boolean }) {
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
  return null;
}

function DrawerLinks({ items, action, onNavigate }: { items: NavItem[]; action: SessionAction; onNavigate: () => void }) {
  return (
    <Box component="nav" aria-label="Main menu">
      <List>
        {items.map((item) => (
          <ListItem key={item.label} disablePadding>
            {item.kind === 'external' ? (
              <ListItemButton component="a" href={item.href} onClick={onNavigate}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            ) : (
              <ListItemButton component={NavLink} to={item.to} onClick={onNavigate}>
                <ListItemText primary={item.label} />
              </ListItemButton>
            )}
          </ListItem>
        ))}
      </List>
      {action !== 'none' && (
        <Box sx={{ px: 2, pt: 1 }}>
          <SessionButton action={action} onNavigate={onNavigate} fullWidth />
        </Box>
      )}
    </Box>
  );
}

/** §2 Top navigation bar. `showNavigation={false}` keeps only the logo. */
export function NavBar({ showNavigation = true }: { showNavigation?: boolean }) {
  const { marketingUrl } = useRuntimeConfig();
  const { data: user, isPending } = useCurrentUser();
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const drawerId = useId();
  const drawerTitleId = useId();

  // The same reading of the user query as the route guards: pending → neither button, error → signed out.
  const action: SessionAction = isPending ? 'none' : user ? 'logout' : 'login';

  const items: NavItem[] = [
    { kind: 'external', label: 'About', href: `${marketingUrl}/about` },
    { kind: 'external', label: 'Pricing', href: `${marketingUrl}/pricing` },
    { kind: 'external', label: 'Contact Us', href: `${marketingUrl}/contact` },
    { kind: 'route', label: 'Download', to: '/download' },
    ...(user ? [{ kind: 'route', label: 'Dashboard', to: '/dashboard' } as const] : []),
  ];

  const closeDrawer = () => setDrawerOpen(false);

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider' }}>
      <Toolbar sx={{ gap: 2 }}>
        <Logo href={marketingUrl} />
        <Box sx={{ flexGrow: 1 }} />
        {showNavigation && (
          <Box component="nav" aria-label="Main" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            {isMobile ? (
              <IconButton
                edge="end"
                color="inherit"
                aria-label="Open menu"
                aria-haspopup="dialog"
                aria-expanded={drawerOpen}
                aria-controls={drawerOpen ? drawerId : undefined}
                onClick={() => setDrawerOpen(true)}
              >
                <MenuIcon />
              </IconButton>
            ) : (
              <>
                <InlineLinks items={items} />
                <SessionButton action={action} />
              </>
            )}
          </Box>
        )}
      </Toolbar>
      {showNavigation && isMobile && (
        <Drawer
          anchor="right"
          open={drawerOpen}
          onClose={closeDrawer}
          slotProps={{
            paper: { id: drawerId, role: 'dialog', 'aria-labelledby': drawerTitleId, sx: { width: { xs: 300, sm: 400 } } },
          }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: 2, py: 1 }}>
            <Typography id={drawerTitleId} component="h2" variant="h6">
              Menu
            </Typography>
            <IconButton aria-label="Close menu" onClick={closeDrawer}>
              <CloseIcon />
            </IconButton>
          </Box>
          <Divider />
          <DrawerLinks items={items} action={action} onNavigate={closeDrawer} />
        </Drawer>
      )}
    </AppBar>
  );
}
