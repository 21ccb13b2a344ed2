import type { SelectedUsersExport } from '../../contract/userExport';
import { sendForFile, type DownloadedFile } from './adminHttp';

/** The selected users as CSV (`users-selected.csv`), the same columns as the export of every user. */
export function exportSelectedUsers(ids: SelectedUsersExport['ids']): Promise<DownloadedFile> {
  return sendForFile('/api/admin/users/export', 'users-selected.csv', { method: 'POST', body: { ids } });
}
