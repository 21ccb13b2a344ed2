import type { Theme } from '@mui/material/styles';
import { EmptyClasses, type RaThemeOptions } from 'react-admin';

/** What the console changes in react-admin's and MUI's components so every tab reads well and fits a phone (issue 28). */
export const consoleComponents: RaThemeOptions['components'] = {
  // A dialog naming a user by a long e-mail address wraps it rather than scroll sideways on a phone.
  MuiDialog: { styleOverrides: { paper: { overflowWrap: 'anywhere' } } },
  // react-admin draws an empty list's words as an h4 straight under the page's h1 (the title).
  MuiTypography: { defaultProps: { variantMapping: { h4: 'h2' } } },
  // An empty list's words in the disabled grey are too faint to read (WCAG 1.4.3).
  RaEmpty: {
    styleOverrides: {
      root: ({ theme }: { theme: Theme }) => ({ [`& .${EmptyClasses.message}`]: { color: theme.palette.text.secondary } }),
    },
  },
};
