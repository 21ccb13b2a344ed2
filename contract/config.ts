import { z } from 'zod';
import { sageBuildSchema } from './builds';

/** Public runtime configuration the browser reads from `GET /api/config` (never secrets). */
export const runtimeConfigSchema = z.object({
  marketingUrl: z.string(),
  supportEmail: z.string(),
  installationGuideUrl: z.string(),
  defaultBuild: sageBuildSchema,
  /**
   * How Sign in with Epic works here: `epic` (Epic Account Services), `development` (a local
   * stand-in identity provider, see the login page's notice) or `unavailable` (not configured).
   */
  epicSignIn: z.enum(['epic', 'development', 'unavailable']),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
