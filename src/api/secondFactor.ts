import { queryOptions, useQuery } from '@tanstack/react-query';
import { okResponseSchema } from '../../contract/auth';
import {
  recoveryCodesSchema,
  secondFactorStatusSchema,
  totpEnrolmentSchema,
  type OwnerProof,
  type SecondFactorStatus,
} from '../../contract/secondFactor';
import { getJson, post, remove } from './client';

/** The signed-in user's two-step sign-in (issue 40): an authenticator app and recovery codes. */

export const SECOND_FACTOR_QUERY_KEY = ['account', 'second-factor'] as const;

/** `GET /api/account/second-factor`: on or off, since when, recovery codes left. */
export const fetchSecondFactorStatus = (): Promise<SecondFactorStatus> => getJson('/api/account/second-factor', secondFactorStatusSchema);

export const secondFactorQuery = queryOptions({ queryKey: SECOND_FACTOR_QUERY_KEY, queryFn: fetchSecondFactorStatus });

export const useSecondFactorStatus = () => useQuery(secondFactorQuery);

/** `POST /api/account/totp`: a new secret and the otpauth URI its QR code shows. */
export const startTotp = () => post('/api/account/totp', totpEnrolmentSchema);

/** `POST /api/account/totp/confirm`: the app's code turns it on; answers the ten recovery codes, shown once. */
export const confirmTotp = (code: string) => post('/api/account/totp/confirm', recoveryCodesSchema, { code });

/** `DELETE /api/account/totp`, with the password or a fresh code. */
export const removeTotp = (proof: OwnerProof) => remove('/api/account/totp', okResponseSchema, proof);

/** `POST /api/account/recovery-codes`, with the password or a fresh code: ten new codes in place of the old. */
export const regenerateRecoveryCodes = (proof: OwnerProof) => post('/api/account/recovery-codes', recoveryCodesSchema, proof);
