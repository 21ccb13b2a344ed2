import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, TextInput, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { FieldValues, Resolver, ResolverResult } from 'react-hook-form';
import type { AdminUser } from '../../../contract/admin';
import { IDENTITY_CHECK_MAX, secondFactorResetRequestSchema, type SecondFactorResetRequest } from '../../../contract/secondFactor';
import { resetSecondFactor } from '../../api/adminSecondFactor';
import { glyph } from '../../ui/icons';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';

export const ResetSecondFactorIcon = glyph(
  'M12.65 10C11.83 7.67 9.61 6 7 6c-3.31 0-6 2.69-6 6s2.69 6 6 6c2.61 0 4.83-1.67 5.65-4H17v4h4v-4h2v-4zM7 14c-1.1 0-2-.9-2-2s.9-2 2-2 2 .9 2 2-.9 2-2 2',
  'ResetSecondFactorIcon',
);

/** The identity check's rule (required, 10–500 characters), read by react-admin's form. */
const resolver: Resolver<FieldValues> = async (values): Promise<ResolverResult<FieldValues>> => {
  const parsed = secondFactorResetRequestSchema.safeParse(values);
  if (parsed.success) return { values: parsed.data as FieldValues, errors: {} };
  const message = parsed.error.issues[0]?.message ?? 'Say how you verified who is asking';
  return { values: {}, errors: { identityCheck: { type: 'validate', message } } };
};
const asTyped = (value: string) => value;

/**
 * The support path of decision 046: a user locked out of two-step sign-in (phone and recovery codes
 * lost) asks support; staff check who is asking, say how, and turn it off. Audited; the owner is
 * mailed. Support may do it for customers, only admins for staff (the server decides).
 */
export function ResetSecondFactorButton() {
  const user = useRecordContext<AdminUser>();
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const reset = useMutation({
    mutationFn: (values: SecondFactorResetRequest) => adminCall(resetSecondFactor(String(user?.id), values)),
    onSuccess: () => {
      notifySuccess('admin.users.resetSecondFactor.done', { name: user?.email ?? user?.username ?? '' });
      refresh();
      setOpen(false);
    },
  });
  if (!user) return null;
  const who = user.email ?? user.username;
  return (
    <>
      <Button label="admin.users.resetSecondFactor.label" onClick={() => setOpen(true)}>
        <ResetSecondFactorIcon />
      </Button>
      {open && (
        <ConfirmActionDialog
          title={translate('admin.users.resetSecondFactor.title', { name: who })}
          body={translate('admin.users.resetSecondFactor.content', { name: who })}
          fields={
            <TextInput
              source="identityCheck"
              label="admin.users.resetSecondFactor.identityCheck"
              parse={asTyped}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: IDENTITY_CHECK_MAX } }}
              helperText="admin.users.resetSecondFactor.identityCheckHelp"
            />
          }
          form={{ resolver, defaultValues: { identityCheck: '' }, onSubmit: (values) => reset.mutate(values as SecondFactorResetRequest) }}
          confirmLabel={translate('admin.users.resetSecondFactor.submit')}
          confirmColor="error"
          pending={reset.isPending}
          error={reset.error && { title: translate('admin.users.resetSecondFactor.failed'), message: reset.error.message }}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
