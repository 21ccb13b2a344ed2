import { post } from './client';

/**
 * The login page with LEGACY_LOGIN=off (decision 048): mail an account without Epic its way in. The
 * login page trusts the server's contract and loads no zod (decision 009): no answer schema here.
 */
export const requestSignInLink = (email: string): Promise<unknown> => post('/api/login/link-request', null, { email });
