import { BooleanField, DateField, SelectField, Show, SimpleShowLayout, TextField } from 'react-admin';
import { AccountDetailsPanel } from './AccountDetailsPanel';
import { AiHistoryPanel } from './AiHistoryPanel';
import { NotesPanel } from './NotesPanel';
import { UsagePanel } from './UsagePanel';
import { UserShowActions } from './UserShowActions';
import { ROLE_CHOICES } from './roleChoices';

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
