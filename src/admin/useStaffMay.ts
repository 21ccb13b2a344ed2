import { usePermissions } from 'react-admin';
import { staffMay, staffRefusal, type StaffAction, type StaffRole } from '../../contract/staffRoles';
import type { StaffPermissions } from '../authProvider/authProvider';

/**
 * Whether the signed-in member of staff may take `action` (contract/staffRoles.ts). The server
 * refuses it anyway (403 `role_forbidden`).
 */
export function useStaffMay(action: StaffAction): boolean {
  const { permissions } = usePermissions<StaffPermissions>();
  return staffMay(permissions?.role, action);
}

/**
 * Why the signed-in member of staff may not take `action` (about `target`, for an action about a
 * user), or null when they may: the console shows such a control switched off with this reason
 * (issue 37), rather than hiding it.
 */
export function useStaffRefusal(action: StaffAction, target?: { role: StaffRole | null }): string | null {
  const { permissions } = usePermissions<StaffPermissions>();
  return staffRefusal(permissions?.role, action, target);
}
