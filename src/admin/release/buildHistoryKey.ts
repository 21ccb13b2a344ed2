/** The Release tab's build history (issue 41): read again after a release or a withdrawal. */
export const BUILD_HISTORY_QUERY_KEY = ['admin', 'builds'] as const;
