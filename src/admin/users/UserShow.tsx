import { BooleanField, DateField, DeleteWithConfirmButton, EditButton, Show, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { useNotifyError } from '../notify';
import { ReissueLicenseButton, SignOutEverywhereButton } from './AccountControlButtons';
import { AccountDetailsPanel } from './AccountDetailsPanel';
import { AiHistoryPanel } from './AiHistoryPanel';
import { DownloadLicenseButton } from './DownloadLicenseButton';
import { NotesPanel } from './NotesPanel';
import { UsagePanel } from './UsagePanel';

function UserShowActions() {
  const notifyError = useNotifyError();
  return (
    <TopToolbar>
      <EditButton />
      <DownloadLicenseButton />
      <ReissueLicenseButton />
      <SignOutEverywhereButton />
      {/* Success: `resources.users.notifications.deleted`, then the list. */}
      <DeleteWithConfirmButton
        mutationOptions={{ onError: (error: unknown) => notifyError({ title: 'admin.error', message: 'admin.users.deleteFailed', error }) }}
      />
    </TopToolbar>
  );
}

/** A user as admins see it (§2, §3, issues 14 and 26): account, license token, account details, usage, AI chat history. */
export function UserShow() {
  return (
    <Show actions={<UserShowActions />}>
      <SimpleShowLayout>
        <TextField source="username" />
        <TextField source="email" emptyText="—" />
        <TextField source="status" />
        <BooleanField source="isAdmin" />
        <TextField source="epicDisplayName" emptyText="—" />
        <TextField source="token" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} />
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
