import { z } from 'zod';
import { singleLine } from './text';

/**
 * Where the customer is signed in (issue 27): their browser sessions and their plugin installs.
 * A session's cookie token and its hash never leave the server: each session has a public random
 * `id` of its own.
 */

/** A public id of a session or an install: what the server hands out (a UUID), nothing else. */
export const publicIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'id must be an id this server gave');

/**
 * `/api/account/sessions/{id}` and `/api/account/installs/{id}`: any id that is not one of the
 * caller's is 404, whatever it looks like (so the route answers a stranger 401 first).
 */
export const accountSessionParamsSchema = z.object({ id: z.string().check(singleLine('id')).max(100, 'id is too long') });

/** One signed-in browser. Browser and OS come from its user agent ("Unknown" when it says neither). */
export const accountSessionSchema = z.object({
  id: z.string(),
  kind: z.literal('browser'),
  browser: z.string(),
  os: z.string(),
  /** The address it signed in from, shortened to its network (203.0.113.0/24, 2001:db8:1::/48); null when unknown. */
  ipNetwork: z.string().nullable(),
  /** ISO 8601: when it signed in, and when it was last seen (to the minute). */
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/**
 * Whether an install runs the build to run (issue 41), by the update check's rule: `current`;
 * `out_of_date` (a newer build ships for its engine; `required` when it must move); `withdrawn` (its
 * own build was withdrawn: it must move); `unknown` when it said no versions, an engine no build
 * ships for, or a version that is not one. `latestVersion`/`downloadUrl`: the build to install for
 * its engine, null when none ships for it.
 */
export const INSTALL_UPDATE_STATUSES = ['current', 'out_of_date', 'withdrawn', 'unknown'] as const;
export type InstallUpdateStatus = (typeof INSTALL_UPDATE_STATUSES)[number];
export const installUpdateSchema = z.object({
  status: z.enum(INSTALL_UPDATE_STATUSES),
  latestVersion: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  required: z.boolean(),
});
export type InstallUpdate = z.infer<typeof installUpdateSchema>;

/** One plugin install, recorded when the plugin signed in (the hand-off). */
export const pluginInstallSchema = z.object({
  id: z.string(),
  engineVersion: z.string().nullable(),
  pluginVersion: z.string().nullable(),
  update: installUpdateSchema,
  /** ISO 8601: its sign-in, and its last call with the license token that said its install id. */
  createdAt: z.string(),
  lastUsedAt: z.string(),
});
export type PluginInstall = z.infer<typeof pluginInstallSchema>;

/** `GET /api/account/sessions`: the asking browser's session first, then the others and the installs newest first. */
export const accountSessionsSchema = z.object({
  sessions: z.array(accountSessionSchema),
  installs: z.array(pluginInstallSchema),
});
export type AccountSessions = z.infer<typeof accountSessionsSchema>;

/** `DELETE /api/account/sessions/{id}`: `signedOut` when it was the asking browser's own session. */
export const sessionEndedSchema = z.object({ ok: z.literal(true), signedOut: z.boolean() });
export type SessionEnded = z.infer<typeof sessionEndedSchema>;

/** `POST /api/account/sessions/end-others`: how many other sessions were ended. */
export const otherSessionsEndedSchema = z.object({ ok: z.literal(true), ended: z.number().int().min(0) });
export type OtherSessionsEnded = z.infer<typeof otherSessionsEndedSchema>;

/** `DELETE /api/account/installs/{id}`. */
export const installForgottenSchema = z.object({ ok: z.literal(true) });
