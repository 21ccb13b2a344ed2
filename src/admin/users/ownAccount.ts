import { useGetIdentity, useRecordContext } from 'react-admin';

/**
 * Whether the user on screen is the signed-in admin: their own admin role and account are not theirs
 * to remove from the console (the server refuses both, `self_demotion` and `self_deletion`).
 */
export function useIsOwnAccount(): boolean {
  const record = useRecordContext();
  const { identity } = useGetIdentity();
  return record !== undefined && identity !== undefined && String(record.id) === String(identity.id);
}
