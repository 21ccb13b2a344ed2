import {
  Alert,
  AlertTitle,
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Form, useGetIdentity, useListContext, useRefresh, useTranslate, useUnselectAll } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { AdminUser } from '../../../contract/admin';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { runForEach, type BulkOutcome } from './bulkRun';

export type BulkAction = 'suspend' | 'reinstate' | 'signOut';

interface Props {
  /** Its words: `admin.users.bulk.<action>.*`. */
  action: BulkAction;
  /** The call for one user, with the form's values (the suspension's reason). */
  task: (userId: string, values: FieldValues) => Promise<unknown>;
  /** Fields the action asks for, with the rule they must meet. */
  fields?: ReactNode;
  resolver?: Resolver<FieldValues>;
  defaultValues?: FieldValues;
  /** Whether the signed-in admin's own account, if selected, goes last (signing it out ends the session). */
  ownLast?: boolean;
  onClose: () => void;
}

/**
 * Asks to confirm an action on the selected users ("Suspend 3 users?"), does it for each of them
 * and says how it went. When every one succeeded: a toast, the list read again, the selection
 * cleared. When some were refused (already suspended, one's own account…), the dialog lists them
 * with the server's reason until it is closed; the outcome stays in the dialog, not a toast,
 * since an open dialog hides the rest of the page from screen readers.
 */
export function BulkActionDialog({ action, task, fields, resolver, defaultValues, ownLast = false, onClose }: Props) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const { selectedIds, data, resource } = useListContext<AdminUser>();
  const unselectAll = useUnselectAll(resource);
  const { identity } = useGetIdentity();
  const titleId = useId();
  const ids = selectedIds.map(String);
  const count = { smart_count: ids.length };
  const words = `admin.users.bulk.${action}`;

  const finish = () => {
    unselectAll();
    onClose();
  };
  const run = useMutation({
    mutationFn: (values: FieldValues): Promise<BulkOutcome> =>
      runForEach(ids, (id) => adminCall(task(id, values)), ownLast && identity ? String(identity.id) : undefined),
    onSuccess: (outcome) => {
      refresh();
      if (outcome.failed.length > 0) return;
      notifySuccess(`${words}.done`, count);
      finish();
    },
  });
  const outcome = run.data;
  const nameOf = (id: string) => {
    const user = data?.find((row) => String(row.id) === id);
    return user?.email ?? user?.username ?? id;
  };

  return (
    <Dialog open onClose={run.isPending ? undefined : outcome ? finish : onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Form
        noValidate
        resolver={resolver}
        defaultValues={defaultValues}
        onSubmit={(values: FieldValues) => run.mutate(values)}
        disableInvalidFormNotification
        reValidateMode="onSubmit"
      >
        <DialogTitle id={titleId}>{translate(`${words}.title`, count)}</DialogTitle>
        <DialogContent>
          {outcome ? (
            <Alert severity={outcome.done.length > 0 ? 'warning' : 'error'} role="status">
              <AlertTitle>{translate(`${words}.partly`, { ...count, done: outcome.done.length })}</AlertTitle>
              {translate('admin.users.bulk.notDone', { smart_count: outcome.failed.length })}
              <ul>
                {outcome.failed.map(({ id, reason }) => (
                  <li key={id}>{translate('admin.users.bulk.reason', { name: nameOf(id), reason })}</li>
                ))}
              </ul>
            </Alert>
          ) : (
            <>
              <DialogContentText sx={{ mb: fields ? 2 : 0 }}>{translate(`${words}.content`, count)}</DialogContentText>
              {fields}
            </>
          )}
        </DialogContent>
        <DialogActions>
          {outcome ? (
            <MuiButton onClick={finish} variant="contained">
              {translate('admin.users.bulk.close')}
            </MuiButton>
          ) : (
            <>
              <MuiButton onClick={onClose} disabled={run.isPending}>
                {translate('ra.action.cancel')}
              </MuiButton>
              <MuiButton type="submit" variant="contained" color={action === 'reinstate' ? 'primary' : 'error'} loading={run.isPending}>
                {translate(`${words}.submit`)}
              </MuiButton>
            </>
          )}
        </DialogActions>
      </Form>
    </Dialog>
  );
}
