import { useMutation } from '@tanstack/react-query';
import { Button, useRecordContext } from 'react-admin';
import type { AdminUser } from '../../../contract/admin';
import { DownloadIcon } from '../../ui/icons';
import { downloadLicense } from '../../api/admin';
import { saveFile } from '../../browser';
import { useNotifyError } from '../notify';
import { useAdminCall } from '../useAdminCall';

/** Saves the user's signed license file (`GET /api/sage/{id}/license?download=true`, admins only, audited). */
export function DownloadLicenseButton() {
  const user = useRecordContext<AdminUser>();
  const adminCall = useAdminCall();
  const notifyError = useNotifyError();
  const download = useMutation({
    mutationFn: (id: string) => adminCall(downloadLicense(id)),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => notifyError({ title: 'admin.error', message: 'admin.users.licenseFailed', error }),
  });
  if (!user) return null;
  return (
    <Button label="admin.users.downloadLicense" onClick={() => download.mutate(user.id)} disabled={download.isPending}>
      <DownloadIcon />
    </Button>
  );
}
