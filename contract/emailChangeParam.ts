/**
 * The query parameter the e-mail change link's outcome comes back in (issue 27). A module of its
 * own, free of zod: the page's first script reads it (contract/startPolicy.ts).
 */
export const EMAIL_CHANGE_PARAM = 'emailChange';
