import { useDataProvider } from 'react-admin';
import type { AdminDataProvider } from './dataProvider';

export { dataProvider, type AdminDataProvider, type AiThread } from './dataProvider';
export type { DownloadedFile } from './http';

/** The admin DataProvider with its custom calls, inside react-admin (errors go through its authProvider). */
export const useAdminDataProvider = () => useDataProvider<AdminDataProvider>();
