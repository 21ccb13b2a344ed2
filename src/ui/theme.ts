import { createTheme } from '@mui/material/styles';

/** §9: the mobile layout starts at 768 px and below. */
export const MOBILE_MAX_WIDTH = 768;
export const MOBILE_MEDIA_QUERY = `(max-width:${MOBILE_MAX_WIDTH}px)`;

export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#4f46e5' },
    secondary: { main: '#64748b' },
    background: { default: '#f8fafc' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    button: { textTransform: 'none', fontWeight: 600 },
  },
});
