import type { AdminUser } from '../../../contract/admin';

/** §5 User edit: username and e-mail are required; each blank one says so. */
export function validateUser(values: Partial<AdminUser>): Partial<Record<'username' | 'email', string>> {
  const errors: Partial<Record<'username' | 'email', string>> = {};
  if (!values.username?.trim()) errors.username = 'admin.users.fieldsRequired';
  if (!values.email?.trim()) errors.email = 'admin.users.fieldsRequired';
  return errors;
}
