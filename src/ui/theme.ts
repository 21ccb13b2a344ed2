import { createTheme } from '@mui/material/styles';

/** §9: the mobile layout starts at 768 px and below. */
export const MOBILE_MAX_WIDTH = 768;
export const MOBILE_MEDIA_QUERY = `(max-width:${MOBILE_MAX_WIDTH}px)`;

const PRIMARY = '#4f46e5';

/**
 * The keyboard focus ring of every link and button: the primary colour is 6:1 against the white bar
 * and the page's background (WCAG asks 3:1), and it sits 2 px outside the control, so it shows on a
 * filled button too. MUI's own focus sign is a faint ripple or nothing at all.
 */
const FOCUS_RING = { outline: `2px solid ${PRIMARY}`, outlineOffset: 2 } as const;
/** In lists and tab rows the ring is drawn inside the item, where a scrolling parent cannot clip it. */
const INSET_FOCUS_RING = { '&.Mui-focusVisible': { outlineOffset: -2 } } as const;

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: PRIMARY },
    secondary: { main: '#64748b' },
    background: { default: '#f8fafc' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    // Plain links and buttons outside MUI's components (the toast's close button) get the same ring.
    MuiCssBaseline: { styleOverrides: { 'a:focus-visible, button:focus-visible, summary:focus-visible': FOCUS_RING } },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': FOCUS_RING } } },
    MuiLink: { styleOverrides: { root: { '&:focus-visible, &.Mui-focusVisible': FOCUS_RING } } },
    MuiListItemButton: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiMenuItem: { styleOverrides: { root: INSET_FOCUS_RING } },
    MuiTab: { styleOverrides: { root: INSET_FOCUS_RING } },
  },
});
