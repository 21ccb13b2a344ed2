import { orgPoolSchema, type OrgCreditGrant } from '../../contract/adminOrgs';
import { sendFor } from './adminHttp';

/**
 * The console's calls about organisations that are not records (issue 38). Records (the list, an
 * organisation's page) are react-admin's, through the DataProvider. Kept apart from admin.ts so
 * only the organisation's page carries them.
 */

/** Adds credits to the organisation's shared pool, with a reason (admins); answers the pool after it. */
export const grantOrgCredits = (orgId: string, grant: OrgCreditGrant): Promise<number> =>
  sendFor(orgPoolSchema, `/api/admin/orgs/${encodeURIComponent(orgId)}/credits`, { method: 'POST', body: grant }).then(({ pool }) => pool);
