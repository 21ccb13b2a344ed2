import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TextInput, useTranslate } from 'react-admin';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { withdrawBuildSchema, type WithdrawBuild } from '../../../contract/builds';
import { withdrawBuild } from '../../api/admin';
import { CURRENT_BUILD_QUERY_KEY } from '../../api/builds';
import { ConfirmActionDialog } from '../ConfirmActionDialog';
import { useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { BUILD_HISTORY_QUERY_KEY } from './buildHistoryKey';

/** The withdraw form's rule (a required reason of at most 500 characters), from the contract the server checks. */
const withdrawResolver = zodResolver(withdrawBuildSchema as z.ZodType<FieldValues, FieldValues>) as Resolver<FieldValues>;
/** Text as typed: react-admin would make a cleared field null, which the contract reads as no text at all. */
const asTyped = (value: string) => value;

/**
 * Withdraws (yanks) a released build with a required reason (issue 41): it leaves the download page
 * and the update check, stays in the history, and installs on it are told to move.
 */
export function WithdrawBuildDialog({ version, onClose }: { version: string; onClose: () => void }) {
  const translate = useTranslate();
  const adminCall = useAdminCall();
  const queryClient = useQueryClient();
  const notifySuccess = useNotifySuccess();
  const withdraw = useMutation({
    mutationFn: (values: WithdrawBuild) => adminCall(withdrawBuild(version, values)),
    onSuccess: () => {
      notifySuccess('admin.release.withdraw.done', { version });
      void queryClient.invalidateQueries({ queryKey: BUILD_HISTORY_QUERY_KEY });
      // The download page may have led with this build.
      void queryClient.invalidateQueries({ queryKey: CURRENT_BUILD_QUERY_KEY });
      onClose();
    },
  });
  return (
    <ConfirmActionDialog
      title={translate('admin.release.withdraw.title', { version })}
      body={translate('admin.release.withdraw.content')}
      fields={
        <TextInput
          source="reason"
          label="admin.release.withdraw.reason"
          parse={asTyped}
          multiline
          minRows={2}
          isRequired
          slotProps={{ htmlInput: { maxLength: 500 } }}
          helperText={false}
        />
      }
      form={{ resolver: withdrawResolver, defaultValues: { reason: '' }, onSubmit: (values) => withdraw.mutate(values as WithdrawBuild) }}
      confirmLabel={translate('admin.release.withdraw.submit')}
      confirmColor="error"
      pending={withdraw.isPending}
      error={withdraw.error && { title: translate('admin.release.withdraw.failed'), message: withdraw.error.message }}
      onClose={onClose}
    />
  );
}
