import { z } from 'zod';
import { sageBuildSchema } from './builds';
import { LEGACY_LOGIN_MODES } from './legacyLogin';

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
  /** LEGACY_LOGIN (contract/legacyLogin.ts, decision 048): what the e-mail sign-in still allows. */
  legacyLogin: z.enum(LEGACY_LOGIN_MODES),
  /**
   * Product analytics (docs/analytics.md): null while POSTHOG_KEY is unset, and then posthog-js is
   * never loaded. `apiHost` is the product's own `/ingest` proxy; `ipLocation` says whether
   * `GET /api/analytics/location` answers.
   */
  analytics: z
    .object({
      key: z.string(),
      apiHost: z.string(),
      excludedUserIds: z.array(z.string()),
      ipLocation: z.boolean(),
    })
    .nullable(),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;
