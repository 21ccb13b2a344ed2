import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-admin';
import { DownloadIcon } from '../../ui/icons';
import { exportUsers as fetchUsersCsv } from '../../api/admin';
import { saveFile } from '../../browser';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';
import { useStaffMay } from '../useStaffMay';

/** Saves every user as `users.csv` (§7 `GET /api/admin/users/export`); only for a role that may (issue 28). */
export function ExportUsersButton() {
  const mayExport = useStaffMay('exportAllUsers');
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const exportUsers = useMutation({
    mutationFn: () => adminCall(fetchUsersCsv()),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => notifyError({ title: 'admin.users.exportErrorTitle', message: 'admin.users.exportFailed', error }),
  });
  if (!mayExport) return null;
  return (
    <Button label="admin.users.export" onClick={() => exportUsers.mutate()} disabled={exportUsers.isPending}>
      <DownloadIcon />
    </Button>
  );
}
