import type { SelectedUsersExport } from '../../contract/userExport';
import { filenameFrom, send, type DownloadedFile } from './adminHttp';

/** The selected users as CSV (`users-selected.csv`), the same columns as the export of every user. */
export async function exportSelectedUsers(ids: SelectedUsersExport['ids']): Promise<DownloadedFile> {
  const res = await send('/api/admin/users/export', { method: 'POST', body: { ids } });
  return { blob: await res.blob(), filename: filenameFrom(res.headers.get('content-disposition')) ?? 'users-selected.csv' };
}
