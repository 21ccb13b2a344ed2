import { ThemeProvider, type Theme } from '@mui/material';
import { useCallback, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';

/**
 * Names each row's checkbox of the Datagrid inside ("Select this row"). react-admin puts that name
 * on MUI's outer span, which MUI 9 does not pass on to the `<input>`, so screen readers found an
 * unnamed checkbox. The header's "Select all" names its input itself, and keeps that name.
 */
export function RowCheckboxNames({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const name = translate('ra.action.select_row');
  const theme = useCallback(
    (outer: Theme): Theme => ({
      ...outer,
      components: {
        ...outer.components,
        MuiCheckbox: {
          ...outer.components?.MuiCheckbox,
          defaultProps: { ...outer.components?.MuiCheckbox?.defaultProps, slotProps: { input: { 'aria-label': name } } },
        },
      },
    }),
    [name],
  );
  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
