import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { okResponseSchema } from '../../contract/auth';
import {
  passkeyAddedSchema,
  passkeyAnswerSchema,
  passkeyListSchema,
  passkeyRemovedSchema,
  type Passkey,
  type PasskeyAdded,
  type RemovePasskeyRequest,
} from '../../contract/passkeys';
import { getJson, patch, post, remove } from './client';

/**
 * Passkeys (issue 40): the signed-in user's, and signing in with one. The browser's ceremonies
 * (@simplewebauthn/browser) are loaded only when one starts, so no page's first paint carries them.
 */

export const PASSKEYS_QUERY_KEY = ['account', 'passkeys'] as const;

/** `GET /api/account/passkeys`: newest first. */
export const fetchPasskeys = async (): Promise<Passkey[]> => (await getJson('/api/account/passkeys', passkeyListSchema)).passkeys;

export const passkeysQuery = queryOptions({ queryKey: PASSKEYS_QUERY_KEY, queryFn: fetchPasskeys });

/** `enabled`: false while it is not known whether the account has a password (Epic accounts have no passkeys). */
export const usePasskeys = (enabled = true) => useQuery({ ...passkeysQuery, enabled });

const ceremonies = () => import('@simplewebauthn/browser');

/**
 * Adds a passkey named `name`: the server's options (`POST /api/account/passkeys/options`), the
 * browser's ceremony (the user picks where to keep it and confirms), then the answer
 * (`POST /api/account/passkeys`). A cancelled ceremony throws the browser's error (passkeyProblem).
 * The account's first second factor comes with its recovery codes, to show once.
 */
export async function addPasskey(name: string): Promise<PasskeyAdded> {
  const { startRegistration } = await ceremonies();
  const optionsJSON = await post<PublicKeyCredentialCreationOptionsJSON>('/api/account/passkeys/options');
  const response = await startRegistration({ optionsJSON });
  return post('/api/account/passkeys', passkeyAddedSchema, { name, response });
}

/** `PATCH /api/account/passkeys/{id}`. */
export const renamePasskey = async (id: string, name: string): Promise<Passkey> =>
  (await patch(`/api/account/passkeys/${encodeURIComponent(id)}`, passkeyAnswerSchema, { name })).passkey;

/** `DELETE /api/account/passkeys/{id}` with the account's password; a wrong one is an HttpError `wrong_password`. */
export const removePasskey = (id: string, body: RemovePasskeyRequest) =>
  remove(`/api/account/passkeys/${encodeURIComponent(id)}`, passkeyRemovedSchema, body);

/**
 * Signs in with a passkey the browser or a device holds for this site: options
 * (`POST /api/login/passkey/options`), the ceremony, then `POST /api/login/passkey`, which starts
 * the session.
 */
export async function signInWithPasskey(): Promise<void> {
  const { startAuthentication } = await ceremonies();
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>('/api/login/passkey/options');
  const response = await startAuthentication({ optionsJSON });
  await post('/api/login/passkey', okResponseSchema, { response });
}

/**
 * Answers a password sign-in's second step with one of the account's passkeys: options for the
 * pending sign-in (`POST /api/login/second-factor/passkey/options`), the ceremony, then
 * `POST /api/login/second-factor/passkey`, which starts the session.
 */
export async function secondFactorWithPasskey(): Promise<void> {
  const { startAuthentication } = await ceremonies();
  const optionsJSON = await post<PublicKeyCredentialRequestOptionsJSON>('/api/login/second-factor/passkey/options');
  const response = await startAuthentication({ optionsJSON });
  await post('/api/login/second-factor/passkey', okResponseSchema, { response });
}
