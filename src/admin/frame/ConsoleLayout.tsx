import { AppBar, Box, CircularProgress, Drawer, IconButton, Toolbar, Typography, type Theme } from '@mui/material';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { MenuIcon } from '../../ui/icons';
import { consoleTranslate as translate } from '../i18n';
import { RefreshIcon } from '../icons';
import { ConsoleMenu } from './ConsoleMenu';
import { ConsoleUserMenu } from './ConsoleUserMenu';
import { isReadInSight } from '../drawnAhead';

const OPEN_WIDTH = 220;
const COLLAPSED_WIDTH = 56;

/** Where react-admin's `<Title>` writes each page's title (its documented container id). */
export const PAGE_TITLE_ID = 'react-admin-title';

/** Hidden until focused: the first Tab of the page offers to skip the app bar and the menu. */
/**
 * Styles for a phone's screen only. The screen is told by CSS, never guessed: the page's layout is
 * right from the server's markup on, and a wide base style keeps tests in jsdom (which ignores
 * media queries) on a laptop's layout.
 */
const onPhone = (style: Record<string, string>) => (theme: Theme) => ({ [theme.breakpoints.down('sm')]: style });

const skipLink = {
  position: 'absolute',
  left: 8,
  top: -48,
  zIndex: 1300,
  p: 1,
  bgcolor: 'background.paper',
  color: 'primary.main',
  borderRadius: 1,
  '&:focus': { top: 8 },
} as const;

/**
 * Refresh, spinning while anything the admin sees is fetched. A component of its own: a fetch that starts or ends
 * redraws the button, not the frame and its menu (a redraw React does at once, in the task that
 * saw the change: 110 ms of a phone's main thread at 4× CPU as the Home attached).
 */
function RefreshButton() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ predicate: isReadInSight }) > 0;
  return (
    <IconButton color="inherit" aria-label={translate('ra.action.refresh')} onClick={() => void queryClient.invalidateQueries()}>
      {fetching ? <CircularProgress color="inherit" size={24} thickness={5} aria-hidden /> : <RefreshIcon />}
    </IconButton>
  );
}

/**
 * The console's frame on every page (decision 035): the app bar with the page's title as its one
 * h1, Refresh and the user menu; the menu, beside the page on a laptop (narrowed to its icons by
 * the menu button) and over it on a phone. Plain MUI and the router: the server draws it for the
 * Home and it works before react-admin runs; react-admin renders only the pages inside it.
 * Laid out by CSS media queries, not by a guess of the screen, so the server's markup fits any.
 */
export function ConsoleLayout({ title, children }: { title: ReactNode; children: ReactNode }) {
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const width = collapsed ? COLLAPSED_WIDTH : OPEN_WIDTH;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box component="a" href="#main-content" sx={skipLink}>
        {translate('ra.navigation.skip_nav')}
      </Box>
      <AppBar position="fixed" color="primary" elevation={1}>
        <Toolbar variant="dense" sx={{ gap: 1, px: { xs: 1, sm: 2 } }}>
          {/* One button per screen, each shown by a media query: a laptop's narrows the menu beside
              the page, a phone's opens it over the page. */}
          <IconButton
            color="inherit"
            edge="start"
            aria-label={translate(collapsed ? 'ra.action.open_menu' : 'ra.action.close_menu')}
            aria-expanded={!collapsed}
            onClick={() => setCollapsed((was) => !was)}
            sx={onPhone({ display: 'none' })}
          >
            <MenuIcon />
          </IconButton>
          <IconButton
            color="inherit"
            edge="start"
            aria-label={translate('ra.action.open_menu')}
            aria-haspopup="dialog"
            onClick={() => setDrawerOpen(true)}
            sx={[{ display: 'none' }, onPhone({ display: 'inline-flex' })]}
          >
            <MenuIcon />
          </IconButton>
          <Typography component="h1" variant="h6" noWrap sx={{ flex: 1, fontSize: '1.15rem' }}>
            {title}
            {/* A leaf of its own: react-admin writes its pages' titles into it through a portal. */}
            <span id={PAGE_TITLE_ID} />
          </Typography>
          <RefreshButton />
          <ConsoleUserMenu />
        </Toolbar>
      </AppBar>
      <Toolbar variant="dense" />
      <Box sx={{ display: 'flex', flex: 1, minWidth: 0 }}>
        <Box
          component="nav"
          aria-label={translate('admin.menuName')}
          sx={[{ width, flexShrink: 0, transition: 'width 150ms ease-out', overflowX: 'hidden' }, onPhone({ display: 'none' })]}
        >
          <ConsoleMenu collapsed={collapsed} />
        </Box>
        {drawerOpen && (
          <Drawer
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            slotProps={{ paper: { 'aria-label': translate('admin.menuName'), sx: { width: OPEN_WIDTH } } }}
          >
            <ConsoleMenu onChoose={() => setDrawerOpen(false)} />
          </Drawer>
        )}
        {/* No page wider than the screen: a wide table scrolls inside its card (TableScroller), and a long
            address wraps anywhere, which alone lets a table's column shrink below its longest address. */}
        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{ flex: 1, flexBasis: 0, minWidth: 0, px: 1, pb: 2, overflowWrap: 'anywhere', outline: 'none' }}
        >
          {children}
        </Box>
      </Box>
    </Box>
  );
}
