import { zodResolver } from '@hookform/resolvers/zod';
import {
  BooleanInput,
  Button,
  Edit,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { useEffect } from 'react';
import { useFormContext, useWatch, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ADMIN_MESSAGES, userUpdateSchema } from '../../../contract/admin';
import { useNotifyError } from '../notify';
import { useIsOwnAccount } from './ownAccount';
import { ROLE_CHOICES } from './roleChoices';

/**
 * The form's rule is the contract's, the one the server checks an update with (§5: `Username and
 * email are required`). No status here: Suspend and Reinstate on the user's page set it (decision 029).
 */
/** react-admin's forms hold any record: the rule reads the fields it knows. */
const userEditResolver = zodResolver(userUpdateSchema as z.ZodType<FieldValues, FieldValues>) as Resolver<FieldValues>;

/**
 * Cancel goes back to the user's page: nothing was saved (the edit is pessimistic), so the page and
 * the next edit show the stored values again.
 */
function CancelButton() {
  const record = useRecordContext();
  const redirect = useRedirect();
  return <Button label="ra.action.cancel" onClick={() => redirect('show', 'users', record?.id)} />;
}

function UserEditToolbar() {
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton />
      <CancelButton />
    </Toolbar>
  );
}

/** Is Admin, switched off on the admin's own record with the reason under it, read with the switch. */
function IsAdminInput() {
  const own = useIsOwnAccount();
  if (!own) return <BooleanInput source="isAdmin" />;
  return (
    <BooleanInput
      source="isAdmin"
      disabled
      options={{ slotProps: { input: { 'aria-describedby': OWN_ADMIN_REASON_ID } } }}
      helperText={<span id={OWN_ADMIN_REASON_ID}>{ADMIN_MESSAGES.selfDemotion}</span>}
    />
  );
}
const OWN_ADMIN_REASON_ID = 'own-admin-role-reason';

/**
 * The role, asked for while Is Admin is on (a new admin starts as Support, the lesser role); on
 * the admin's own record switched off, with the same reason as the switch.
 */
function RoleInput() {
  const own = useIsOwnAccount();
  const isAdmin = useWatch({ name: 'isAdmin' }) === true;
  const role: unknown = useWatch({ name: 'role' });
  const { setValue } = useFormContext();
  useEffect(() => {
    if (isAdmin && role == null) setValue('role', 'support', { shouldDirty: true });
  }, [isAdmin, role, setValue]);
  if (!isAdmin) return null;
  return (
    <SelectInput source="role" choices={ROLE_CHOICES} disabled={own} helperText={own ? ADMIN_MESSAGES.selfDemotion : 'admin.roles.help'} />
  );
}

/** §2 User editing: Save (`User updated successfully`) or Cancel; `Update Error` with the server's message. */
export function UserEdit() {
  const notifyError = useNotifyError();
  return (
    <Edit
      mutationMode="pessimistic"
      redirect="show"
      mutationOptions={{
        onError: (error: unknown) =>
          notifyError({ title: 'admin.users.updateErrorTitle', message: error instanceof Error ? error.message : String(error) }),
      }}
    >
      <SimpleForm resolver={userEditResolver} toolbar={<UserEditToolbar />}>
        <TextInput source="username" />
        <TextInput source="email" type="email" />
        <IsAdminInput />
        <RoleInput />
      </SimpleForm>
    </Edit>
  );
}
