import { Alert, AlertTitle } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useGetIdentity, useListContext, useRefresh, useTranslate, useUnselectAll } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { AdminUser } from '../../../contract/admin';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
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
    <ConfirmActionDialog
      title={translate(`${words}.title`, count)}
      body={translate(`${words}.content`, count)}
      fields={fields}
      form={{ resolver, defaultValues, onSubmit: (values) => run.mutate(values) }}
      confirmLabel={translate(`${words}.submit`)}
      confirmColor={action === 'reinstate' ? 'primary' : 'error'}
      pending={run.isPending}
      outcome={
        outcome && (
          <Alert severity={outcome.done.length > 0 ? 'warning' : 'error'} role="status">
            <AlertTitle>{translate(`${words}.partly`, { ...count, done: outcome.done.length })}</AlertTitle>
            {translate('admin.users.bulk.notDone', { smart_count: outcome.failed.length })}
            <ul>
              {outcome.failed.map(({ id, reason }) => (
                <li key={id}>{translate('admin.users.bulk.reason', { name: nameOf(id), reason })}</li>
              ))}
            </ul>
          </Alert>
        )
      }
      closeLabel={translate('admin.users.bulk.close')}
      onClose={outcome ? finish : onClose}
    />
  );
}
