import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-admin';
import { DownloadIcon } from '../../ui/icons';
import { exportUsers as fetchUsersCsv } from '../../api/admin';
import { saveFile } from '../../browser';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { RefusedButton, useRefusalNotes } from '../RefusalNotes';
import { useStaffRefusal } from '../useStaffMay';

/** Saves every user as `users.csv` (§7 `GET /api/admin/users/export`); switched off, with the reason, for a role that may not (issues 28, 37). */
export function ExportUsersButton() {
  const refusal = useStaffRefusal('exportAllUsers');
  const { describedBy, notes } = useRefusalNotes([refusal]);
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const exportUsers = useMutation({
    mutationFn: () => adminCall(fetchUsersCsv()),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => notifyError({ title: 'admin.users.exportErrorTitle', message: 'admin.users.exportFailed', error }),
  });
  if (refusal) {
    return (
      <>
        <RefusedButton label="admin.users.export" icon={<DownloadIcon />} describedBy={describedBy(refusal)} />
        {notes}
      </>
    );
  }
  return (
    <Button label="admin.users.export" onClick={() => exportUsers.mutate()} disabled={exportUsers.isPending}>
      <DownloadIcon />
    </Button>
  );
}
