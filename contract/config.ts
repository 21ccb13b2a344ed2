import { z } from 'zod';
import { sageBuildSchema } from './builds';

/** Public runtime configuration the browser reads from `GET /api/config` (never secrets). */
export const runtimeConfigSchema = z.object({
  marketingUrl: z.string(),
  supportEmail: z.string(),
  installationGuideUrl: z.string(),
  defaultBuild: sageBuildSchema,
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
