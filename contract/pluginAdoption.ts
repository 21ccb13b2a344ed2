import { z } from 'zod';
import { compareVersions } from './pluginVersions';

/** The console Home's window for plugin versions (issue 41): the last 30 days. */
export const PLUGIN_ADOPTION_DAYS = 30;

/** One plugin version in use: `version` null when installs or uses did not say theirs. */
export const pluginVersionUseSchema = z.object({
  version: z.string().nullable(),
  /** A build of this version was withdrawn: the installs on it are told to move. */
  withdrawn: z.boolean(),
  /** Installs that called in the window (plugin_installs.last_used_at). */
  installs: z.number(),
  /** Queries recorded in the window (usage_events.occurred_at), and the units they used. */
  uses: z.number(),
  units: z.number(),
});
export type PluginVersionUse = z.infer<typeof pluginVersionUseSchema>;

/** `GET /api/admin/plugin-versions`: who runs which plugin version, newest version first, the unknown one last. */
export const pluginAdoptionSchema = z.object({ days: z.number(), versions: z.array(pluginVersionUseSchema) });
export type PluginAdoption = z.infer<typeof pluginAdoptionSchema>;

/** Newest version first (the release channel's order), the unknown version last. */
export function newestVersionFirst(a: Pick<PluginVersionUse, 'version'>, b: Pick<PluginVersionUse, 'version'>): number {
  if (a.version === null || b.version === null) return (a.version === null ? 1 : 0) - (b.version === null ? 1 : 0);
  return compareVersions(b.version, a.version);
}
