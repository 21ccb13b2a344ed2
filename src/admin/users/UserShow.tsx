import {
  BooleanField,
  DateField,
  DeleteWithConfirmButton,
  EditButton,
  SelectField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useRecordContext,
} from 'react-admin';
import { Typography } from '@mui/material';
import { ADMIN_MESSAGES, type AdminUser } from '../../../contract/admin';
import { useNotifyError } from '../notify';
import { ReissueLicenseButton, SignOutEverywhereButton } from './AccountControlButtons';
import { AccountDetailsPanel } from './AccountDetailsPanel';
import { AiHistoryPanel } from './AiHistoryPanel';
import { DownloadLicenseButton } from './DownloadLicenseButton';
import { NotesPanel } from './NotesPanel';
import { useIsOwnAccount } from './ownAccount';
import { SuspensionButton } from './SuspensionButtons';
import { UsagePanel } from './UsagePanel';
import { useStaffMay, useStaffMayActOn } from '../useStaffMay';
import { ROLE_CHOICES } from './roleChoices';

const OWN_DELETION_REASON_ID = 'own-account-deletion-reason';

/** Delete, asking first; on the admin's own record switched off, with the reason beside it. */
function DeleteUserButton() {
  const notifyError = useNotifyError();
  const own = useIsOwnAccount();
  if (own) {
    return (
      <>
        <DeleteWithConfirmButton disabled aria-describedby={OWN_DELETION_REASON_ID} />
        <Typography id={OWN_DELETION_REASON_ID} variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
          {ADMIN_MESSAGES.selfDeletion}
        </Typography>
      </>
    );
  }
  return (
    // Success: `resources.users.notifications.deleted`, then the list.
    <DeleteWithConfirmButton
      mutationOptions={{ onError: (error: unknown) => notifyError({ title: 'admin.error', message: 'admin.users.deleteFailed', error }) }}
    />
  );
}

/** The page's actions; those the signed-in role cannot take are not shown (issue 28). */
function UserShowActions() {
  const mayEdit = useStaffMay('editUsers');
  const mayDelete = useStaffMay('deleteUsers');
  // Only admins receive a license file: it carries the user's token (issue 36).
  const mayDownload = useStaffMay('downloadLicense');
  // Support acts on customers only: on a member of staff its writes are refused, so not offered.
  const mayActOnUser = useStaffMayActOn(useRecordContext<AdminUser>()?.role ?? null);
  return (
    // Six actions wrap on a phone rather than push the page wider than the screen.
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {mayEdit && <EditButton />}
      {mayDownload && <DownloadLicenseButton />}
      {mayActOnUser && <ReissueLicenseButton />}
      {mayActOnUser && <SignOutEverywhereButton />}
      {mayActOnUser && <SuspensionButton />}
      {mayDelete && <DeleteUserButton />}
    </TopToolbar>
  );
}

/** A user as staff see it (§2, §3, issues 14 and 26): account, account details, usage, AI chat history; never the license token (issue 36). */
export function UserShow() {
  return (
    <Show actions={<UserShowActions />}>
      <SimpleShowLayout>
        <TextField source="username" />
        <TextField source="email" emptyText="—" />
        <TextField source="status" />
        <BooleanField source="isAdmin" />
        <SelectField source="role" choices={ROLE_CHOICES} emptyText="—" />
        <TextField source="epicDisplayName" emptyText="—" />
        <DateField source="createdAt" showTime />
        <TextField source="id" />
      </SimpleShowLayout>
      <AccountDetailsPanel />
      <NotesPanel />
      <UsagePanel />
      <AiHistoryPanel />
    </Show>
  );
}
