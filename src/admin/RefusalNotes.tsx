import { Typography } from '@mui/material';
import { useId, type ReactElement, type ReactNode } from 'react';
import { Button } from 'react-admin';

/**
 * The reasons some controls are switched off (a role that may not, your own account, …), each said
 * once beside them, as your own account's Delete does: `describedBy(reason)` is the id a control
 * puts in its aria-describedby so screen readers read the reason with it, `notes` the visible text.
 */
export function useRefusalNotes(reasons: readonly (string | null)[]): {
  describedBy: (reason: string | null) => string | undefined;
  notes: ReactNode;
} {
  const prefix = useId();
  const distinct = [...new Set(reasons.filter((reason) => reason !== null))];
  const describedBy = (reason: string | null) => (reason === null ? undefined : `${prefix}-refusal-${distinct.indexOf(reason)}`);
  const notes = distinct.map((reason) => (
    <Typography key={reason} id={describedBy(reason)} variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
      {reason}
    </Typography>
  ));
  return { describedBy, notes };
}

/** A control the signed-in member of staff may not use: its label and icon, switched off, read with its reason. */
export function RefusedButton({ label, icon, describedBy }: { label: string; icon: ReactElement; describedBy: string | undefined }) {
  return (
    <Button label={label} disabled aria-describedby={describedBy}>
      {icon}
    </Button>
  );
}
