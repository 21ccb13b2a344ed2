import { z } from 'zod';

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
