import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';

/**
 * Asks before something the user may not mean (ending a session, leaving or deleting an
 * organisation): what will happen, Cancel, and the action in red. A failure is said in the dialog,
 * not a toast: the open dialog hides the rest of the page from screen readers.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  error: Error | null;
  /** What to say when the failure has no words of its own. */
  failedText: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={props.open} onClose={props.busy ? undefined : props.onClose} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{props.text}</DialogContentText>
        {props.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {props.error.message || props.failedText}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.busy}>
          Cancel
        </Button>
        <Button variant="contained" color="error" onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? props.busyLabel : props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
