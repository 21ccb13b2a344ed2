import { Button, Typography } from '@mui/material';
import { EXPORTS_PER_HOUR } from '../../../../contract/accountData';
import { ACCOUNT_EXPORT_PATH } from '../../../api/accountData';
import { DownloadIcon } from '../../../ui/icons';
import { AccountPanel } from './AccountPanel';

const HEADING_ID = 'account-data-heading';

/**
 * The Account section's "Your data" panel (issue 27): everything Sage holds about the customer, as
 * one JSON file (docs/account-data.md). A plain link: the browser downloads it with the session
 * cookie, as it does the usage CSV, and the server streams it.
 */
export function ExportPanel() {
  return (
    <AccountPanel headingId={HEADING_ID} title="Your data">
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Download everything Sage holds about you as one JSON file: your profile, where you are signed in, plugin installs, subscriptions,
        credit purchases and spending, usage, AI chats and stored messages, and the record of changes to your account. Secrets such as your
        password and license token are left out, and the file says so. You can download it {EXPORTS_PER_HOUR} times an hour.
      </Typography>
      <Button variant="outlined" href={ACCOUNT_EXPORT_PATH} download startIcon={<DownloadIcon aria-hidden />}>
        Download my data
      </Button>
    </AccountPanel>
  );
}
