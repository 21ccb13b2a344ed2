import * as oidc from 'openid-client';
import type { EpicSettings } from '../config';

/** An Epic account as the sign-in sees it. */
export interface EpicAccount {
  accountId: string;
  displayName: string;
}

/** A failed step of the OAuth exchange, named by the §2 reason the browser is shown. */
export class EpicSignInError extends Error {
  constructor(
    readonly reason: 'token_exchange_failed' | 'user_info_failed',
    options: { cause: unknown },
  ) {
    super(reason, options);
    this.name = 'EpicSignInError';
  }
}

/**
 * Epic Account Services over openid-client: authorization code with PKCE (S256), the client
 * authenticating with HTTP Basic as Epic asks. This module is the only one that speaks OAuth to Epic.
 */
export function createEpicOAuth(settings: EpicSettings) {
  const server: oidc.ServerMetadata = {
    issuer: settings.issuer,
    authorization_endpoint: settings.authorizeUrl,
    token_endpoint: settings.tokenUrl,
    userinfo_endpoint: settings.userInfoUrl,
  };
  const config = new oidc.Configuration(
    server,
    settings.clientId,
    { redirect_uris: [settings.redirectUri] },
    oidc.ClientSecretBasic(settings.clientSecret),
  );
  // Plain http is only ever configured for the loopback development provider and tests.
  if ([settings.authorizeUrl, settings.tokenUrl, settings.userInfoUrl].some((u) => u.startsWith('http:'))) {
    oidc.allowInsecureRequests(config);
  }

  return {
    newCodeVerifier: (): string => oidc.randomPKCECodeVerifier(),
    newState: (): string => oidc.randomState(),

    /** Where the browser goes to sign in at Epic. */
    async authorizationUrl(state: string, codeVerifier: string): Promise<string> {
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes,
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return url.href;
    },

    /**
     * Exchanges the callback's code for tokens, then reads the account. `query` is the callback's
     * query string; the state has already been compared by the caller.
     */
    async accountFromCallback(query: URLSearchParams, expected: { state: string; codeVerifier: string }): Promise<EpicAccount> {
      const callbackUrl = new URL(settings.redirectUri);
      callbackUrl.search = query.toString();
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          expectedState: expected.state,
          pkceCodeVerifier: expected.codeVerifier,
        });
      } catch (cause) {
        throw new EpicSignInError('token_exchange_failed', { cause });
      }
      try {
        const subject = tokens.claims()?.sub ?? oidc.skipSubjectCheck;
        const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
        const displayName =
          typeof info.preferred_username === 'string' && info.preferred_username.trim() ? info.preferred_username.trim() : info.sub;
        return { accountId: info.sub, displayName: displayName.slice(0, 100) };
      } catch (cause) {
        throw new EpicSignInError('user_info_failed', { cause });
      }
    },
  };
}

export type EpicOAuth = ReturnType<typeof createEpicOAuth>;
