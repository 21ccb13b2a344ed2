import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, TextInput, useGetIdentity, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import type { AdminUser } from '../../../contract/admin';
import { isSuspended, suspendRequestSchema, SUSPENSION_REASON_MAX, type SuspendRequest } from '../../../contract/suspension';
import { reinstateUser, suspendUser } from '../../api/suspension';
import { glyph } from '../../ui/icons';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useAdminCall } from '../useAdminCall';
import { useNotifyError, useNotifySuccess } from '../notify';

export const SuspendIcon = glyph(
  'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2M4 12c0-4.42 3.58-8 8-8 1.85 0 3.55.63 4.9 1.69L5.69 16.9C4.63 15.55 4 13.85 4 12m8 8c-1.85 0-3.55-.63-4.9-1.69L18.31 7.1C19.37 8.45 20 10.15 20 12c0 4.42-3.58 8-8 8',
  'SuspendIcon',
);
export const ReinstateIcon = glyph(
  'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2m-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8z',
  'ReinstateIcon',
);

/** The suspend form's rule (a required reason); react-admin's forms hold any record: the rule reads the fields it knows. */
export const suspendResolver = zodResolver(suspendRequestSchema as z.ZodType<FieldValues, FieldValues>) as Resolver<FieldValues>;
/** Text as typed: react-admin would make a cleared field null, which the contract reads as no text at all. */
const asTyped = (value: string) => value;

/** The reason a suspension is for, mailed to the user and kept in the audit log; inside a form with `suspendResolver`. */
export function SuspensionReasonInput() {
  return (
    <TextInput
      source="reason"
      label="admin.users.suspend.reason"
      parse={asTyped}
      multiline
      minRows={2}
      slotProps={{ htmlInput: { maxLength: SUSPENSION_REASON_MAX } }}
      helperText="admin.users.suspend.reasonHelp"
    />
  );
}

/**
 * Suspends the user with a required reason (issue 28). The dialog says what a suspension does, since
 * the reason is mailed to the user; on success the page's records are read again.
 */
export function SuspendDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const who = user.email ?? user.username;

  const suspend = useMutation({
    mutationFn: (values: SuspendRequest) => adminCall(suspendUser(user.id, values)),
    onSuccess: () => {
      notifySuccess('admin.users.suspend.done', { name: who });
      refresh();
      onClose();
    },
  });

  return (
    <ConfirmActionDialog
      title={translate('admin.users.suspend.title', { name: who })}
      body={translate('admin.users.suspend.content', { name: who })}
      fields={<SuspensionReasonInput />}
      form={{ resolver: suspendResolver, defaultValues: { reason: '' }, onSubmit: (values) => suspend.mutate(values as SuspendRequest) }}
      confirmLabel={translate('admin.users.suspend.submit')}
      confirmColor="error"
      pending={suspend.isPending}
      error={suspend.error && { title: translate('admin.users.suspend.failed'), message: suspend.error.message }}
      onClose={onClose}
    />
  );
}

/** Reinstates a suspended user after a confirmation: they can sign in and use their license again. */
function ReinstateButton({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  const adminCall = useAdminCall();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const notifyError = useNotifyError();
  const who = user.email ?? user.username;
  const reinstate = useMutation({
    mutationFn: () => adminCall(reinstateUser(user.id)),
    onSuccess: () => {
      notifySuccess('admin.users.reinstate.done', { name: who });
      refresh();
    },
    onError: (error) => notifyError({ title: 'admin.error', message: 'admin.users.reinstate.failed', error }),
    onSettled: () => setOpen(false),
  });
  return (
    <>
      <Button label="admin.users.reinstate.label" onClick={() => setOpen(true)} disabled={reinstate.isPending}>
        <ReinstateIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={reinstate.isPending}
        title="admin.users.reinstate.confirmTitle"
        content="admin.users.reinstate.confirmContent"
        titleTranslateOptions={{ name: who }}
        contentTranslateOptions={{ name: who }}
        onConfirm={() => reinstate.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/**
 * The user page's Suspend (a dialog asking why) or, for a suspended user, Reinstate. An admin's own
 * account shows neither: the server refuses suspending oneself.
 */
export function SuspensionButton() {
  const user = useRecordContext<AdminUser>();
  const { identity } = useGetIdentity();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  if (isSuspended(user.status)) return <ReinstateButton user={user} />;
  if (identity !== undefined && String(identity.id) === String(user.id)) return null;
  return (
    <>
      <Button label="admin.users.suspend.label" onClick={() => setOpen(true)}>
        <SuspendIcon />
      </Button>
      {open && <SuspendDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
