import simpleRestProvider from 'ra-data-simple-rest';
import { withLifecycleCallbacks, type DataProvider, type UpdateParams } from 'react-admin';
import { adminUserSchema, auditEntrySchema, type AdminUser, type UserUpdate } from '../../contract/admin';
import { adminOrgRowSchema, adminOrgSchema } from '../../contract/adminOrgs';
import { httpClient } from './http';

/** What an admin edits of a user (its role too, issue 28): only that travels, not the license token, the times or the status (decision 029). */
function editedUser(params: UpdateParams): UpdateParams {
  const { username, email, isAdmin, role } = params.data as Partial<AdminUser>;
  // The role travels only with Is Admin on: switched off, the server clears it.
  const data: Partial<UserUpdate> = { username, email: email ?? undefined, isAdmin, role: isAdmin ? (role ?? undefined) : undefined };
  return { ...params, data };
}

/**
 * The console's records as react-admin resources, through ra-data-simple-rest over `/api/admin`
 * (decision 013): `users` (getList paged, sorted and `q`-filtered; getOne; getMany as
 * `filter={"id":[…]}`; update by PUT; delete), `orgs` (getList paged, sorted and `q`-filtered, its
 * rows a summary; getOne, the whole organisation) and `audit` (getList, paged). Every record read is
 * checked against the contract. The console's other calls are typed functions in src/api/admin.ts.
 */
export const dataProvider: DataProvider = withLifecycleCallbacks(simpleRestProvider('/api/admin', httpClient), [
  { resource: 'users', afterRead: async (record) => adminUserSchema.parse(record), beforeUpdate: async (params) => editedUser(params) },
  {
    resource: 'orgs',
    afterGetList: async (result) => ({ ...result, data: result.data.map((row) => adminOrgRowSchema.parse(row)) }),
    afterGetOne: async (result) => ({ ...result, data: adminOrgSchema.parse(result.data) }),
  },
  { resource: 'audit', afterRead: async (record) => auditEntrySchema.parse(record) },
]);
