import {
  BooleanInput,
  Button,
  Edit,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  required,
  useRecordContext,
  useRedirect,
} from 'react-admin';
import { useNotifyError } from '../notify';
import { validateUser } from './userRules';

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
      <SimpleForm validate={validateUser} toolbar={<UserEditToolbar />}>
        <TextInput source="username" />
        <TextInput source="email" type="email" />
        <TextInput source="status" validate={required()} />
        <BooleanInput source="isAdmin" />
      </SimpleForm>
    </Edit>
  );
}
