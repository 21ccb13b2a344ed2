import type { StaffAction } from '../../contract/staffRoles';

/**
 * What each admin route does, as the console's actions (contract/staffRoles.ts): the role check of
 * decision 030. An admin route not listed here is for the `admin` role only.
 * tests/server/roleAccess.test.ts calls every admin route the router lists as each role.
 */
export const ADMIN_ROUTE_ACTIONS: Readonly<Record<string, StaffAction>> = {
  'GET /api/admin/grove-metrics': 'read',
  'GET /api/admin/insights': 'read',
  'GET /api/admin/users': 'read',
  'GET /api/admin/users/search': 'read',
  'GET /api/admin/users/:id': 'read',
  'GET /api/admin/users/:id/ai-history': 'read',
  'GET /api/admin/users/:id/details': 'read',
  'GET /api/admin/users/:id/notes': 'read',
  'GET /api/admin/users/:id/usage': 'read',
  'GET /api/admin/users/:id/usage/history': 'read',
  'GET /api/admin/users/:id/usage.csv': 'read',
  'GET /api/admin/users/:id/credit-packs': 'read',
  'GET /api/admin/messages/search': 'read',
  'GET /api/admin/messages/recent': 'read',
  'GET /api/admin/audit': 'read',
  'POST /api/admin/users/:id/sessions/revoke': 'signOutEverywhere',
  'POST /api/admin/users/:id/license/reissue': 'reissueLicense',
  'POST /api/admin/users/:id/suspend': 'suspend',
  'POST /api/admin/users/:id/reinstate': 'suspend',
  'POST /api/admin/users/:id/notes': 'writeNotes',
  'PUT /api/admin/users/:id/notes/:noteId': 'writeNotes',
  'PUT /api/admin/users/:id': 'editUsers',
  'DELETE /api/admin/users/:id': 'deleteUsers',
  'GET /api/admin/users/export': 'exportAllUsers',
  'POST /api/admin/users/export': 'exportSelectedUsers',
  'POST /api/admin/users/:id/credits': 'adjustCredits',
  'POST /api/admin/users/:id/credit-packs/:purchaseId/refund': 'refundCredits',
  'POST /api/admin/release-sage-build': 'releaseBuilds',
};

/** The action of an admin route (HEAD is GET's), or null when none is listed. */
export function staffActionOf(method: string, url: string): StaffAction | null {
  return ADMIN_ROUTE_ACTIONS[`${method === 'HEAD' ? 'GET' : method} ${url}`] ?? null;
}
