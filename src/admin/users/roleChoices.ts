import { STAFF_ROLES } from '../../../contract/staffRoles';

/** The console's roles as a select or a field shows them, in the product's words (admin.roles.*). */
export const ROLE_CHOICES = STAFF_ROLES.map((role) => ({ id: role, name: `admin.roles.${role}` }));
