import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type JWK } from 'oidc-provider';
import type { EpicSettings } from './config';
import { escapeHtml } from './services/mailer';

/**
 * A local OpenID provider that stands in for Epic Account Services when Epic is not configured and
 * the product runs in development on localhost (never in production: see config.ts), so that
 * `npm start` on a fresh machine can walk the whole sign-in. Tests sign in through it too.
 *
 * Anyone may sign in under any display name; the same name always maps to the same account id,
 * the way one Epic account always has one id.
 */
export interface DevIdentityProvider {
  /** What the product's Epic client is configured with while this provider runs. */
  settings: EpicSettings;
  issuer: string;
  close(): Promise<void>;
}

const SCOPES = 'openid basic_profile';

/** Lifetimes in seconds: a sign-in is short, and the provider forgets everything on restart. */
const TTL = { Interaction: 15 * 60, Session: 24 * 3600, Grant: 24 * 3600, AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600 };

/**
 * The provider's storage: one process's memory, which is all a local stand-in needs. Written out
 * (rather than oidc-provider's built-in one) so that expiry is explicit and start-up is quiet.
 */
function memoryAdapterFactory() {
  const rows = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string) => {
    const row = rows.get(key);
    if (row && row.expiresAt <= Date.now()) rows.delete(key);
    return row && row.expiresAt > Date.now() ? row.payload : undefined;
  };
  const findWhere = (test: (p: AdapterPayload) => boolean) => {
    for (const key of rows.keys()) {
      const payload = live(key);
      if (payload && test(payload)) return payload;
    }
    return undefined;
  };
  return (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      // Every model TTL names has a lifetime; anything else lasts as long as the process.
      rows.set(`${model}:${id}`, { payload, expiresAt: expiresIn === undefined ? Infinity : Date.now() + expiresIn * 1000 });
    },
    find: async (id) => live(`${model}:${id}`),
    findByUid: async (uid) => findWhere((p) => p.kind === model && p.uid === uid),
    findByUserCode: async (userCode) => findWhere((p) => p.kind === model && p.userCode === userCode),
    async consume(id) {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      rows.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const [key, row] of rows) if (row.payload.grantId === grantId) rows.delete(key);
    },
  });
}

/** A stable 32-hex-digit account id for a display name, shaped like Epic's. */
export function devAccountId(displayName: string): string {
  return createHash('sha256').update(`sage-dev:${displayName}`).digest('hex').slice(0, 32);
}

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

function signInPage(uid: string, clientName: string): string {
  const action = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Development sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
label{display:block;margin:1rem 0 .25rem;font-weight:600}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin:1rem .5rem 0 0;padding:.5rem 1rem;font-size:1rem}.note{background:#fef3c7;padding:.75rem;border-radius:.25rem}</style>
</head><body><main>
<h1>Development sign-in</h1>
<p class="note">Epic Games is not configured on this ${escapeHtml(clientName)} server, so this local test identity provider stands in for it. Any name signs in; the same name is the same account.</p>
<form method="post" action="${action}/login">
<label for="displayName">Epic display name</label>
<input id="displayName" name="displayName" required maxlength="64" autocomplete="off" autofocus value="Dev Player">
<button type="submit">Sign in</button>
</form>
<form method="post" action="${action}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;
}

/**
 * Starts the provider on 127.0.0.1:`port` (0: any free port) for a client whose callback is
 * `redirectUri`.
 */
export async function startDevIdentityProvider(opts: {
  port: number;
  redirectUri: string;
  clientName?: string;
}): Promise<DevIdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'sage-dashboard-dev';
  const clientSecret = randomBytes(24).toString('base64url');
  const displayNames = new Map<string, string>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: 'Sage Dashboard',
        redirect_uris: [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...(privateKey.export({ format: 'jwk' }) as JWK), alg: 'RS256', use: 'sig', kid: 'dev' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    adapter: memoryAdapterFactory(),
    ttl: TTL,
    scopes: SCOPES.split(' '),
    claims: { openid: ['sub'], basic_profile: ['preferred_username'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, preferred_username: displayNames.get(sub) ?? sub }),
    }),
    // First-party stand-in: no consent screen, the grant covers what the client asked for.
    async loadExistingGrant(ctx) {
      const { Grant } = ctx.oidc.provider;
      const clientIdOfRequest = ctx.oidc.client?.clientId ?? clientId;
      const existing = ctx.oidc.session?.grantIdFor(clientIdOfRequest);
      if (existing) {
        const grant = await Grant.find(existing);
        if (grant) return grant;
      }
      const grant = new Grant({ clientId: clientIdOfRequest, accountId: ctx.oidc.session?.accountId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
  });
  const oidcHandler = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const route = /^\/interaction\/([^/?]+)(\/login|\/abort)?$/.exec((req.url ?? '').split('?')[0] ?? '');
    if (!route) {
      oidcHandler(req, res);
      return;
    }
    const send = (status: number, text: string) => {
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(text);
    };
    (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== route[1]) return send(400, 'This sign-in page belongs to another sign-in.');
      if (req.method === 'GET' && !route[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(signInPage(details.uid, 'Sage Dashboard'));
        return;
      }
      if (req.method !== 'POST') return send(405, 'Method not allowed');
      if (route[2] === '/abort') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user canceled the sign-in' });
        return;
      }
      const displayName = (await formBody(req)).get('displayName')?.trim().slice(0, 64);
      if (!displayName) return send(400, 'Enter a display name.');
      const accountId = devAccountId(displayName);
      displayNames.set(accountId, displayName);
      await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => send(400, `Sign-in failed: ${err instanceof Error ? err.message : String(err)}`));
  });

  return {
    issuer,
    settings: {
      clientId,
      clientSecret,
      issuer,
      authorizeUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      userInfoUrl: `${issuer}/me`,
      scopes: SCOPES,
      redirectUri: opts.redirectUri,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
