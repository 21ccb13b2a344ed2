import { z } from 'zod';
import { ENGINE_VERSIONS } from './pluginVersions';

/** A released plugin build (product §3 Current build). URLs may be empty for engines it does not ship. */
export const sageBuildSchema = z.object({
  version: z.string(),
  ue54Url: z.string(),
  ue55Url: z.string(),
  ue56Url: z.string(),
  ue57Url: z.string(),
});
export type SageBuild = z.infer<typeof sageBuildSchema>;

/** The build the download page offers when none has been released (product §7, §9). */
export const DEFAULT_BUILD_VERSION = '2025-07-15a';

/**
 * The release channel (issue 41). A build's notes are Markdown (contract/releaseNotes.ts renders
 * them without trusting them); `required`: builds older than it must update.
 */
const engineVersionSchema = z.enum(ENGINE_VERSIONS);

/** One download of a build: the engine it ships for and where. */
export const buildDownloadSchema = z.object({ engineVersion: engineVersionSchema, url: z.string() });
export type BuildDownload = z.infer<typeof buildDownloadSchema>;

/** A released build as the download page, the feed and the plugin see it. */
export const publicReleaseSchema = z.object({
  version: z.string(),
  /** ISO 8601. */
  releasedAt: z.string(),
  notes: z.string(),
  required: z.boolean(),
  /** Oldest engine first; only the engines it ships for. */
  downloads: z.array(buildDownloadSchema),
});
export type PublicRelease = z.infer<typeof publicReleaseSchema>;

/** `GET /api/plugin/releases`: every released build not withdrawn, newest first. */
export const publicReleasesSchema = z.object({ releases: z.array(publicReleaseSchema) });
export type PublicReleases = z.infer<typeof publicReleasesSchema>;

/** A build in the console's history: withdrawn ones too. */
export const buildHistoryItemSchema = publicReleaseSchema.extend({
  /** The version: react-admin's record id. */
  id: z.string(),
  releasedBy: z.string().nullable(),
  withdrawnAt: z.string().nullable(),
  withdrawnBy: z.string().nullable(),
  withdrawReason: z.string().nullable(),
});
export type BuildHistoryItem = z.infer<typeof buildHistoryItemSchema>;

/** `POST /api/admin/builds/{version}/withdraw`. */
export const withdrawBuildSchema = z.object({
  reason: z
    .string({ error: 'Say why the build is withdrawn' })
    .trim()
    .min(1, 'Say why the build is withdrawn')
    .max(500, 'The reason must be at most 500 characters'),
});
export type WithdrawBuild = z.infer<typeof withdrawBuildSchema>;

/** `GET /api/plugin/updates` (and the plugin hand-off's `update`): what an install should do. */
export const updateCheckSchema = z.object({
  engineVersion: engineVersionSchema,
  pluginVersion: z.string(),
  updateAvailable: z.boolean(),
  required: z.boolean(),
  /** Why the update is required: the install's build was withdrawn, or a required build is newer. */
  reason: z.enum(['withdrawn', 'required_update']).nullable(),
  /** The build to install for this engine; null when no build ships for it. */
  latest: publicReleaseSchema.extend({ downloadUrl: z.string() }).nullable(),
  /** The install's own build, when it was withdrawn, and why. */
  withdrawn: z.object({ version: z.string(), reason: z.string() }).nullable(),
  /** The notes of every build since the install's, newest first. */
  releaseNotes: z.array(publicReleaseSchema.pick({ version: true, releasedAt: true, notes: true, required: true })),
});
export type UpdateCheck = z.infer<typeof updateCheckSchema>;
