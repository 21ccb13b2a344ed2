import { useMutation } from '@tanstack/react-query';
import { useState, type ReactElement } from 'react';
import { Button, Confirm, useListContext, useUnselectAll } from 'react-admin';
import type { SuspendRequest } from '../../../contract/suspension';
import { revokeSessions } from '../../api/admin';
import { reinstateUser, suspendUser } from '../../api/suspension';
import { exportSelectedUsers } from '../../api/userExport';
import { saveFile } from '../../browser';
import { DownloadIcon } from '../../ui/icons';
import { SignOutIcon } from '../icons';
import { useNotifyError, useNotifySuccess } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { useStaffMay } from '../useStaffMay';
import { BulkActionDialog, type BulkAction } from './BulkActionDialog';
import { ReinstateIcon, SuspendIcon, SuspensionReasonInput, suspendResolver } from './SuspensionButtons';

/** A button of the selection's toolbar that opens its dialog. */
function DialogButton({ action, icon, dialog }: { action: BulkAction; icon: ReactElement; dialog: (onClose: () => void) => ReactElement }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button label={`admin.users.bulk.${action}.label`} onClick={() => setOpen(true)}>
        {icon}
      </Button>
      {open && dialog(() => setOpen(false))}
    </>
  );
}

function BulkSuspendButton() {
  return (
    <DialogButton
      action="suspend"
      icon={<SuspendIcon />}
      dialog={(onClose) => (
        <BulkActionDialog
          action="suspend"
          task={(id, values) => suspendUser(id, values as SuspendRequest)}
          fields={<SuspensionReasonInput />}
          resolver={suspendResolver}
          defaultValues={{ reason: '' }}
          onClose={onClose}
        />
      )}
    />
  );
}

function BulkReinstateButton() {
  return (
    <DialogButton
      action="reinstate"
      icon={<ReinstateIcon />}
      dialog={(onClose) => <BulkActionDialog action="reinstate" task={reinstateUser} onClose={onClose} />}
    />
  );
}

function BulkSignOutButton() {
  return (
    <DialogButton
      action="signOut"
      icon={<SignOutIcon />}
      dialog={(onClose) => <BulkActionDialog action="signOut" task={revokeSessions} ownLast onClose={onClose} />}
    />
  );
}

/** Saves the selected users as CSV (`POST /api/admin/users/export`) after a confirmation that says how many. */
function ExportSelectedButton() {
  const [open, setOpen] = useState(false);
  const { selectedIds, resource } = useListContext();
  const unselectAll = useUnselectAll(resource);
  const adminCall = useAdminCall();
  const notifySuccess = useNotifySuccess();
  const notifyError = useNotifyError();
  const count = { smart_count: selectedIds.length };
  const exportSelected = useMutation({
    mutationFn: () => adminCall(exportSelectedUsers(selectedIds.map(String))),
    onSuccess: ({ blob, filename }) => {
      saveFile(blob, filename);
      notifySuccess('admin.users.bulk.export.done', { ...count, filename });
      unselectAll();
    },
    onError: (error) => notifyError({ title: 'admin.users.exportErrorTitle', message: 'admin.users.bulk.export.failed', error }),
    onSettled: () => setOpen(false),
  });
  return (
    <>
      <Button label="admin.users.bulk.export.label" onClick={() => setOpen(true)}>
        <DownloadIcon />
      </Button>
      <Confirm
        isOpen={open}
        loading={exportSelected.isPending}
        title="admin.users.bulk.export.title"
        content="admin.users.bulk.export.content"
        confirm="admin.users.bulk.export.submit"
        titleTranslateOptions={count}
        contentTranslateOptions={count}
        onConfirm={() => exportSelected.mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The roles' actions on the selected users, each shown only to a role that may take it. */
export function useUserBulkActions(): ReactElement | false {
  const maySuspend = useStaffMay('suspend');
  const maySignOut = useStaffMay('signOutEverywhere');
  const mayExport = useStaffMay('exportSelectedUsers');
  if (!maySuspend && !maySignOut && !mayExport) return false;
  return (
    <>
      {maySuspend && <BulkSuspendButton />}
      {maySuspend && <BulkReinstateButton />}
      {maySignOut && <BulkSignOutButton />}
      {mayExport && <ExportSelectedButton />}
    </>
  );
}
