import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { reissueMyLicense } from '../../../api/accountLicense';
import { useToast } from '../../../ui/toast';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-license-heading';
export const REISSUE_FAILED = 'Failed to reissue your license';

/**
 * The Account section's License panel (issue 27): the customer replaces their own license, as
 * staff can from the console. The old one is refused at once, so every Sage install must sign in
 * again; a dialog says so before anything happens, because it cannot be undone.
 */
export function LicensePanel() {
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();
  const titleId = useId();
  const textId = useId();
  const reissue = useMutation({
    mutationFn: reissueMyLicense,
    onSuccess: ({ message }) => {
      setConfirming(false);
      toast({ title: 'License reissued', description: message });
    },
  });
  const busy = reissue.isPending;

  function open() {
    reissue.reset();
    setConfirming(true);
  }

  return (
    <AccountPanel headingId={HEADING_ID} title="License">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every Sage install you sign in to uses your license. If a computer you no longer use, or someone else, may still have it, reissue
        it: the current license stops working at once, and every install must sign in again.
      </Typography>
      <Button variant="outlined" color="error" onClick={open}>
        Reissue my license
      </Button>
      <Dialog open={confirming} onClose={busy ? undefined : () => setConfirming(false)} aria-labelledby={titleId} aria-describedby={textId}>
        <DialogTitle id={titleId}>Reissue your license?</DialogTitle>
        <DialogContent>
          <DialogContentText id={textId}>
            Your current license stops working at once. Every Sage plugin install must sign in again to get the new one. This cannot be
            undone.
          </DialogContentText>
          {/* In the dialog, not a toast: the open dialog hides the rest of the page from screen readers. */}
          {reissue.error && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {reissue.error.message || REISSUE_FAILED}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" color="error" onClick={() => reissue.mutate()} disabled={busy}>
            {busy ? 'Reissuing...' : 'Reissue license'}
          </Button>
        </DialogActions>
      </Dialog>
    </AccountPanel>
  );
}
