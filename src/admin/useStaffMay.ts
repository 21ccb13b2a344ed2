import { usePermissions } from 'react-admin';
import { staffMay, staffMayActOn, type StaffAction, type StaffRole } from '../../contract/staffRoles';
import type { StaffPermissions } from '../authProvider/authProvider';

/**
 * Whether the signed-in member of staff may take `action` (contract/staffRoles.ts): the console
 * hides what their role cannot do. The server refuses it anyway (403 `role_forbidden`).
 */
export function useStaffMay(action: StaffAction): boolean {
  const { permissions } = usePermissions<StaffPermissions>();
  return staffMay(permissions?.role, action);
}

/** Whether the signed-in member of staff may write about a user whose role is `targetRole` (support: customers only). */
export function useStaffMayActOn(targetRole: StaffRole | null): boolean {
  const { permissions } = usePermissions<StaffPermissions>();
  return staffMayActOn(permissions?.role, targetRole);
}
