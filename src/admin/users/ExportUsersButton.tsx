import { useMutation } from '@tanstack/react-query';
import { Button } from 'react-admin';
import { DownloadIcon } from '../../ui/icons';
import { useAdminDataProvider } from '../../dataProvider';
import { saveFile } from '../../browser';
import { useNotifyError } from '../notify';

/** Saves every user as `users.csv` (§7 `GET /api/admin/users/export`). */
export function ExportUsersButton() {
  const dataProvider = useAdminDataProvider();
  const notifyError = useNotifyError();
  const exportUsers = useMutation({
    mutationFn: () => dataProvider.exportUsers(),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => notifyError({ title: 'admin.users.exportErrorTitle', message: 'admin.users.exportFailed', error }),
  });
  return (
    <Button label="admin.users.export" onClick={() => exportUsers.mutate()} disabled={exportUsers.isPending}>
      <DownloadIcon />
    </Button>
  );
}
