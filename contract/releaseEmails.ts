import { z } from 'zod';
import { ENGINE_VERSIONS, engineOf, type EngineVersion } from './pluginVersions';

/**
 * Release e-mails (issue 41): a user may ask for an e-mail when a Sage build for their Unreal
 * Engine version is released (off by default). `GET`/`PUT /api/account/release-emails`; every mail
 * carries a one-click unsubscribe (RFC 8058) that `POST /api/release-emails/unsubscribe` honours.
 */

export const RELEASE_EMAILS_TEXT = {
  title: 'Release e-mails',
  switchLabel: 'E-mail me when a Sage build for my Unreal Engine version is released',
  everyEngine: 'every engine',
  unsubscribeTitle: 'Stop release e-mails',
  unsubscribeButton: 'Stop release e-mails',
  unsubscribed: 'You will get no more release e-mails. You can turn them on again in the Account section of your dashboard.',
  unverified: 'Your e-mail address is not verified yet, so no release e-mail is sent to it until it is.',
  unknownLink: 'This link is not valid. You can turn release e-mails off in the Account section of your dashboard.',
} as const;

/** The user's choice, and the engines it covers: those of their recorded installs, or all when none is known. */
export const releaseEmailsSchema = z.object({
  enabled: z.boolean(),
  /** Empty: no install with a known engine yet, so every build is mailed. */
  engines: z.array(z.enum(ENGINE_VERSIONS)),
  /** Whether the account's address is verified: the e-mails go only to a verified one. */
  addressVerified: z.boolean(),
});
export type ReleaseEmails = z.infer<typeof releaseEmailsSchema>;

export const releaseEmailsRequestSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
});
export type ReleaseEmailsRequest = z.infer<typeof releaseEmailsRequestSchema>;

/** The unsubscribe link's token: random base64url text; anything else is refused before it is looked up. */
export const unsubscribeQuerySchema = z.object({
  token: z.string({ error: 'token is required' }).regex(/^[A-Za-z0-9_-]{16,128}$/, 'token is not one this site made'),
});

/** The engines of a user's installs, as the builds know them, each once, in the product's order. */
export function enginesOfInstalls(reported: readonly (string | null)[]): EngineVersion[] {
  const known = new Set(reported.map((engine) => (engine === null ? null : engineOf(engine))));
  return ENGINE_VERSIONS.filter((engine) => known.has(engine));
}

/**
 * Whether a build that ships for `shipsFor` is news for a user whose installs report `reported`:
 * when it ships for one of their engines, or for any build while none of their installs names one
 * the builds know (they may not have installed yet).
 */
export function releaseMailWanted(reported: readonly (string | null)[], shipsFor: readonly EngineVersion[]): boolean {
  const engines = enginesOfInstalls(reported);
  if (engines.length === 0) return shipsFor.length > 0;
  return engines.some((engine) => shipsFor.includes(engine));
}

/** "Unreal Engine 5.5 and 5.6", or "every engine": what the panel and the mail say the choice covers. */
export function enginesText(engines: readonly EngineVersion[]): string {
  if (engines.length === 0) return RELEASE_EMAILS_TEXT.everyEngine;
  const list = engines.length === 1 ? engines[0] : `${engines.slice(0, -1).join(', ')} and ${engines[engines.length - 1]}`;
  return `Unreal Engine ${list}`;
}
