import { Stack, Typography } from '@mui/material';
import { DeleteAccountPanel } from './DeleteAccountPanel';
import { EmailPanel } from './EmailPanel';
import { EpicPanel } from './EpicPanel';
import { ExportPanel } from './ExportPanel';
import { InvoicesPanel } from './InvoicesPanel';
import { LicensePanel } from './LicensePanel';
import { PasskeysPanel } from './PasskeysPanel';
import { PasswordPanel } from './PasswordPanel';
import { ReleaseEmailsPanel } from './ReleaseEmailsPanel';
import { SessionsPanel } from './SessionsPanel';
import { TwoStepPanel } from './TwoStepPanel';

/**
 * The dashboard's Account section (issue 27): what a customer can do for themselves — where they
 * are signed in, their license, password, passkeys and e-mail, release e-mails, invoices, and their data. Loaded only when
 * opened (DashboardPage). Each panel is a card of its own, in this order.
 */
export function AccountSection() {
  return (
    <Stack spacing={3}>
      <Typography id="dashboard-account-heading" component="h1" variant="h4">
        Account
      </Typography>
      <SessionsPanel />
      <LicensePanel />
      <EpicPanel />
      <PasswordPanel />
      <TwoStepPanel />
      <PasskeysPanel />
      <EmailPanel />
      <ReleaseEmailsPanel />
      <InvoicesPanel />
      <ExportPanel />
      <DeleteAccountPanel />
    </Stack>
  );
}
