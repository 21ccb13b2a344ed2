import { sendVerificationResponseSchema, verificationStatusSchema } from '../../contract/emailVerification';
import {
  authStatusSchema,
  checkExistsResponseSchema,
  linkResponseSchema,
  signInOkSchema,
  storePayloadResponseSchema,
  type AuthStatus,
} from '../../contract/epic';
import { getJson, post } from './client';

/** §3 Auth status: who is signed in and whether a plugin hand-off waits for this browser. */
export const fetchAuthStatus = (): Promise<AuthStatus> => getJson('/api/auth/status', authStatusSchema);

/** §7: does an account already use this e-mail? Only answered during an Epic account link. */
export const checkEmailExists = (email: string) => post('/api/user/check-exists', checkExistsResponseSchema, { email });

/** §7: link the e-mail to the Epic account waiting in this browser. */
export const linkEpicAccount = (email: string) => post('/api/epic/link', linkResponseSchema, { email });

/** §4: abandon the Epic account link. */
export const cancelEpicLink = () => post('/api/auth/epic/cancel', signInOkSchema);

/** §4 Email verification: the first mail (idempotent within the cooldown) and a resend. */
export const sendVerification = (email: string) => post('/api/email/send-verification', sendVerificationResponseSchema, { email });
export const resendVerification = (email: string) => post('/api/email/resend-verification', sendVerificationResponseSchema, { email });

/** §4: has the link in the mail been opened? An expired link answers 410 `verification_expired`. */
export const checkVerificationStatus = (email: string) => post('/api/email/check-verification-status', verificationStatusSchema, { email });

/** The plugin hand-off (§4 Login completed): a one-time code for the plugin's loopback address. */
export const storeUePayload = () => post('/api/auth/ue-store-payload', storePayloadResponseSchema);

/** The hand-off is delivered: this browser's plugin request is forgotten. */
export const clearUeContext = () => post('/api/auth/ue-clear', signInOkSchema);
