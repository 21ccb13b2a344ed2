import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import {
  ADMIN_MESSAGES,
  RECENT_LIMIT_MESSAGE,
  RELEASE_FIELDS_REQUIRED,
  SEARCH_TERM_REQUIRED,
  SESSION_ID_REQUIRED,
  USER_FIELDS_REQUIRED,
} from '../../contract/admin';

/**
 * The console's words: react-admin's English plus our own keys, whose values are the spec's texts
 * (§2, §5, §8). Texts the server also uses come from the contract, so both say the same.
 */
export const messages: TranslationMessages = {
  ...englishMessages,
  resources: {
    users: {
      name: 'User |||| Users',
      fields: {
        id: 'ID',
        username: 'Username',
        email: 'Email',
        status: 'Status',
        isAdmin: 'Is Admin',
        token: 'License Token',
        epicDisplayName: 'Epic Display Name',
        createdAt: 'Created',
      },
      notifications: {
        updated: 'User updated successfully',
        deleted: 'User deleted successfully',
      },
    },
    audit: {
      name: 'Audit Entry |||| Audit Log',
      fields: {
        createdAt: 'When',
        actorEmail: 'Who',
        action: 'Action',
        target: 'Target',
        before: 'Before',
        after: 'After',
      },
    },
  },
  admin: {
    menu: {
      home: 'Home',
      release: 'Release',
      search: 'Search',
      findMessage: 'Find Message',
      recentMessages: 'Recent Messages',
      userList: 'User List',
      audit: 'Audit Log',
    },
    error: 'Error',
    home: {
      groveUsers: 'Grove Users',
      refresh: 'Refresh',
      retry: 'Retry',
      failed: 'Failed to fetch user count',
    },
    release: {
      version: 'Version',
      ue55Url: 'UE 5.5 URL',
      ue56Url: 'UE 5.6 URL',
      ue57Url: 'UE 5.7 URL',
      submit: 'Release',
      fieldsRequired: RELEASE_FIELDS_REQUIRED,
      progress: 'Release progress',
      updating: 'Updating...',
      released: 'Released',
      failed: 'Failed',
      success: 'Sage build %{version} released successfully',
      errorTitle: 'Release Error',
      error: 'Failed to release Sage build',
    },
    search: {
      field: 'Search users',
      submit: 'Search',
      termRequired: SEARCH_TERM_REQUIRED,
      results: 'Results',
      none: 'No users found',
      errorTitle: 'Search Error',
      error: 'Failed to search users',
    },
    users: {
      fetchFailed: 'Failed to fetch users',
      fieldsRequired: USER_FIELDS_REQUIRED,
      updateErrorTitle: 'Update Error',
      deleteFailed: 'Failed to delete user',
      export: 'Export',
      exportErrorTitle: 'Export Error',
      exportFailed: 'Failed to export users',
      downloadLicense: 'Download License',
      licenseFailed: 'Failed to download license',
      reissueLicense: {
        label: 'Reissue License',
        confirmTitle: 'Reissue the license of %{name}?',
        confirmContent:
          'A new license token replaces the current one. The current token stops working at once: the plugin will ask %{name} to sign in again to get the new one.',
        done: 'License reissued. The old token no longer works.',
        failed: 'Failed to reissue license',
      },
      signOutEverywhere: {
        label: 'Sign Out Everywhere',
        confirmTitle: 'Sign %{name} out everywhere?',
        confirmContent: 'Every session of %{name} ends now, in every browser. They can sign in again.',
        done: 'Signed out everywhere: %{smart_count} session ended |||| Signed out everywhere: %{smart_count} sessions ended',
        failed: 'Failed to sign the user out',
      },
    },
    account: {
      title: 'Account',
      activeSessions: 'Active sessions',
      lastSignIn: 'Last sign-in',
      never: 'Never',
      signedInWith: '%{time} with %{method}',
      method: {
        epic: 'Epic',
        password: 'email and password',
        unknown: 'an unknown method',
      },
      creditBalance: 'Credit balance',
      storedMessages: 'Stored messages',
      subscriptions: 'Subscriptions',
      noSubscriptions: 'No subscriptions',
      product: 'Product',
      status: 'Status',
      price: 'Price',
      periodEnd: 'Current period ends',
      trialEnd: 'Trial ends',
      failed: 'Failed to fetch account details',
    },
    aiHistory: {
      title: 'AI Chat History',
      empty: 'No chat history available. The threads may have expired or been deleted.',
      failed: 'Failed to fetch AI history',
    },
    findMessage: {
      sessionId: 'Session ID',
      submit: 'Find',
      sessionIdRequired: SESSION_ID_REQUIRED,
      notFound: ADMIN_MESSAGES.messageNotFound,
      failed: 'Failed to search for message',
      createdAt: 'Created',
      size: 'Size',
      characters: '%{count} characters',
      message: 'Message',
    },
    recentMessages: {
      limit: 'Limit',
      submit: 'Fetch',
      download: 'Download',
      limitInvalid: RECENT_LIMIT_MESSAGE,
      none: 'No messages',
      downloaded: 'Downloaded %{count} messages to text file',
      failed: 'Failed to fetch recent messages',
    },
  },
};

export const i18nProvider = polyglotI18nProvider(() => messages, 'en');
