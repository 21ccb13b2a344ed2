import { useMutation } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { Button, Confirm, useRecordContext, useRefresh } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { reissueLicense, revokeSessions } from '../../api/admin';
import { useAdminCall } from '../useAdminCall';
import { ReissueIcon, SignOutIcon } from '../icons';
import { useNotifyError, useNotifySuccess } from '../notify';

interface ConfirmedActionProps<T> {
  /** Translation keys under `admin.users.<name>`: label, confirmTitle, confirmContent, done, failed. */
  name: 'reissueLicense' | 'signOutEverywhere';
  icon: ReactElement;
  run: (userId: string) => Promise<T>;
  /** Values for the success text's placeholders. */
  doneArgs?: (result: T) => Record<string, unknown>;
}

/**
 * A toolbar button whose action waits for a confirmation dialog; on success the page's records are
 * fetched again (the new token, the session count) and a toast says what happened.
 */
function ConfirmedAction<T>({ name, icon, run, doneArgs }: ConfirmedActionProps<T>) {
  const user = useRecordContext<AdminUser>();
  const [open, setOpen] = useState(false);
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const notifyError = useNotifyError();
  const keys = `admin.users.${name}`;
  const action = useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      notifySuccess(`${keys}.done`, doneArgs?.(result));
      refresh();
    },
    onError: (error) => notifyError({ title: 'admin.error', message: `${keys}.failed`, error }),
    onSettled: () => setOpen(false),
  });
  if (!user) return null;
  const who = user.email ?? user.username;
  return (
    <>
      <Button label={`${keys}.label`} onClick={() => setOpen(true)} disabled={action.isPending}>
        {icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={action.isPending}
        title={`${keys}.confirmTitle`}
        content={`${keys}.confirmContent`}
        titleTranslateOptions={{ name: who }}
        contentTranslateOptions={{ name: who }}
        onConfirm={() => action.mutate(user.id)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** Issue 14: gives the user a new license token; the old one stops working everywhere at once. */
export function ReissueLicenseButton() {
  const adminCall = useAdminCall();
  return <ConfirmedAction name="reissueLicense" icon={<ReissueIcon />} run={(id) => adminCall(reissueLicense(id))} />;
}

/** Issue 14: ends every session of the user, in every browser. */
export function SignOutEverywhereButton() {
  const adminCall = useAdminCall();
  return (
    <ConfirmedAction
      name="signOutEverywhere"
      icon={<SignOutIcon />}
      run={(id) => adminCall(revokeSessions(id))}
      doneArgs={({ ended }) => ({ smart_count: ended })}
    />
  );
}
