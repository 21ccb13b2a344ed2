import { Box, Button, Typography } from '@mui/material';
import { useState } from 'react';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-delete-heading';

/**
 * The Account section's Delete account panel (issue 27): what a deletion takes and what it keeps
 * (docs/account-data.md says the same at length), and the dialog that confirms it.
 */
export function DeleteAccountPanel() {
  const [confirming, setConfirming] = useState(false);
  return (
    <AccountPanel headingId={HEADING_ID} title="Delete account">
      <Typography color="text.secondary">Deleting your account cannot be undone. Download your data first if you want a copy.</Typography>
      <Box component="ul" sx={{ color: 'text.secondary', pl: 3, my: 2 }}>
        <Typography component="li">
          Deleted: your profile and sign-ins, plugin installs and license, AI chat history and stored messages, and your usage.
        </Typography>
        <Typography component="li">
          Ended at once: your subscriptions. The rest of the current period is not refunded, and unused credits are lost.
        </Typography>
        <Typography component="li">
          Kept, without your name or e-mail address, as accounting law requires: your credit purchases and spending, and the record of
          changes to your account. Stripe keeps its invoices.
        </Typography>
      </Box>
      <Button variant="outlined" color="error" onClick={() => setConfirming(true)}>
        Delete my account
      </Button>
      <DeleteAccountDialog open={confirming} onClose={() => setConfirming(false)} />
    </AccountPanel>
  );
}
