import { okResponseSchema } from '../../contract/auth';
import { post } from './client';

/**
 * `POST /api/account/license/reissue` (issue 27): replaces the signed-in user's license token, so
 * every plugin install must sign in again. Answers the server's words for the user.
 */
export const reissueMyLicense = () => post('/api/account/license/reissue', okResponseSchema);
