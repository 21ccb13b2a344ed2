/**
 * A reference client of the plugin hand-off (docs/plugin-sign-in.md): does what the Sage plugin
 * does to sign in, with Node built-ins and fetch only.
 *
 *   npx tsx scripts/plugin-login.ts [--server URL] [--port N] [--timeout SECONDS]
 *       [--engine-version V] [--plugin-version V] [--install ID]
 *
 * It listens on http://127.0.0.1:PORT/callback (RFC 8252 loopback), prints the login address for
 * the browser, waits for the browser to bring back a one-time code with our state, and exchanges
 * code + PKCE verifier (RFC 7636) for the license token and user, and says the update to install
 * when the versions it said have one (docs/plugin-updates.md).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { UpdateCheck } from '../contract/builds';
import { PLUGIN_INSTALL_HEADER, pluginPayloadSchema, type PluginPayload } from '../contract/epic';
import { notesText, parseReleaseNotes } from '../contract/releaseNotes';
import type { UsageRemaining } from '../contract/usage';

export interface PluginLoginOptions {
  /** The product's origin, e.g. http://localhost:3000. */
  server: string;
  /** Loopback port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Give up when no hand-off arrived this soon (default 10 minutes: sign-up includes an e-mail). */
  timeoutMs?: number;
  /** What the plugin runs in and is, said at the start and kept with its install. */
  engineVersion?: string;
  pluginVersion?: string;
  /** The install an earlier sign-in gave (payload `installId`): sent on the exchange to stay that install. */
  installId?: string;
}

export interface PluginLogin {
  /** Open this in the browser. */
  loginUrl: string;
  /** Where the browser brings the code back. */
  redirectUri: string;
  /** The exchanged payload; rejects with a readable Error on failure, timeout or close(). */
  result: Promise<PluginPayload>;
  /** Stops listening (and fails `result` if it is still waiting). */
  close(): void;
}

const CALLBACK_PATH = '/callback';

/** Compares our state with the one the browser brought, in constant time whatever their lengths. */
function sameState(expected: string, received: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(expected), digest(received));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The small page the browser sees when the hand-off fails. */
function answerPage(res: http.ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end(`<!doctype html><meta charset="utf-8"><title>Sage</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

/**
 * `GET /api/auth/ue-payload`: the code and the verifier only we know buy the license token. The
 * install we already are, if any, goes along (X-Sage-Install), so the server keeps it.
 */
async function exchange(server: string, code: string, verifier: string, installId: string | undefined): Promise<PluginPayload> {
  const url = new URL('/api/auth/ue-payload', server);
  url.search = new URLSearchParams({ code, code_verifier: verifier }).toString();
  const response = await fetch(url, {
    headers: { accept: 'application/json', ...(installId ? { [PLUGIN_INSTALL_HEADER]: installId } : {}) },
    redirect: 'error',
    signal: AbortSignal.timeout(30_000),
  }).catch((err: Error) => {
    throw new Error(`Could not reach ${server} to exchange the code (${(err.cause as Error | undefined)?.message ?? err.message})`);
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const { error, message } = (body ?? {}) as { error?: string; message?: string };
    const retry = response.status === 429 ? ` (retry after ${response.headers.get('retry-after') ?? '?'} s)` : '';
    throw new Error(`The server refused the code: ${response.status} ${error ?? ''} ${message ?? ''}${retry}`.replace(/\s+/g, ' ').trim());
  }
  const parsed = pluginPayloadSchema.safeParse(body);
  if (!parsed.success) throw new Error('The server answered the exchange with an unexpected body');
  return parsed.data;
}

export async function startPluginLogin({
  server,
  port = 0,
  timeoutMs = 600_000,
  engineVersion,
  pluginVersion,
  installId,
}: PluginLoginOptions): Promise<PluginLogin> {
  const origin = new URL(server).origin;
  // Fresh secrets per attempt: the verifier never leaves this process except in the exchange.
  const verifier = randomBytes(32).toString('base64url'); // 43 unreserved characters
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(32).toString('base64url');

  let settle: { resolve(p: PluginPayload): void; reject(e: Error): void } | undefined;
  const result = new Promise<PluginPayload>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined); // Callers see the rejection; an unobserved one must not crash.
  let handled = false; // One hand-off per listener: later requests are refused.

  const listener = http.createServer((req, res) => {
    res.setHeader('connection', 'close'); // One request per connection, so closing never waits.
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Browsers ask for /favicon.ico and local pages may probe us: only GET /callback counts.
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (handled) return answerPage(res, 400, 'Sign-in already handled', 'This sign-in has already been handled.');
    // The state proves the request comes from the hand-off we started. Any web page can send the
    // browser here, so a wrong one is refused and we keep waiting: it must not end the real sign-in.
    if (!sameState(state, url.searchParams.get('state') ?? '')) {
      return answerPage(res, 400, 'Sign-in refused', 'This request does not belong to the sign-in in progress.');
    }
    handled = true;
    clearTimeout(timer); // The browser is here; the exchange has a timeout of its own.
    const done = (outcome: () => void) => {
      res.once('finish', () => listener.close());
      outcome();
    };
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error || !code) {
      const description = url.searchParams.get('error_description');
      const why = error ? (description ? `${error}: ${description}` : error) : 'no code';
      return done(() => {
        answerPage(res, 400, 'Sign-in failed', `The sign-in did not complete (${why}). Start it again from Unreal Editor.`);
        settle?.reject(new Error(`The sign-in did not complete (${why})`));
      });
    }
    // Answer the browser only after the exchange, so the page it lands on tells the truth.
    exchange(origin, code, verifier, installId).then(
      (payload) =>
        done(() => {
          res
            .writeHead(302, {
              location: `${origin}/login_completed?client=ue`,
              'cache-control': 'no-store',
              'referrer-policy': 'no-referrer',
            })
            .end();
          settle?.resolve(payload);
        }),
      (err: unknown) =>
        done(() => {
          const message = err instanceof Error ? err.message : String(err);
          answerPage(res, 502, 'Sign-in failed', `${message}. Start the sign-in again from Unreal Editor.`);
          settle?.reject(new Error(message));
        }),
    );
  });

  const timer = setTimeout(() => {
    settle?.reject(new Error(`No sign-in arrived within ${Math.round(timeoutMs / 1000)} s`));
    close();
  }, timeoutMs);
  function close(): void {
    clearTimeout(timer);
    settle?.reject(new Error('The sign-in was stopped'));
    listener.close();
    listener.closeAllConnections();
  }

  // Loopback only: nothing off this machine may reach the listener (RFC 8252 §8.3).
  await new Promise<void>((resolve, reject) => {
    listener.once('error', (err) => {
      close(); // E.g. the port is taken: nothing will arrive, so do not keep the process waiting.
      reject(err);
    });
    listener.listen(port, '127.0.0.1', () => resolve());
  });
  const redirectUri = `http://127.0.0.1:${(listener.address() as AddressInfo).port}${CALLBACK_PATH}`;
  const login = new URL('/api/auth/login', origin);
  login.search = new URLSearchParams({
    client: 'ue',
    redirect_uri: redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(engineVersion ? { engineVersion } : {}),
    ...(pluginVersion ? { pluginVersion } : {}),
  }).toString();
  return { loginUrl: login.href, redirectUri, result, close };
}

/**
 * What is left to spend, as the plugin would show it: this period's queries (or Unlimited), pack
 * credits, and when the allowance renews (an Unlimited plan has nothing to renew).
 */
export function describeRemaining({ allowance, credits, periodEnd, org }: UsageRemaining): string[] {
  const renews = `${periodEnd.slice(0, 10)} ${periodEnd.slice(11, 16)} UTC`;
  // A seat holder's organisation pays first: the plugin says who, and what it has left for them.
  const paidBy = org
    ? [
        `Paid by ${org.name}: ${org.seat === null ? 'Unlimited' : org.seat} on your seat, ${org.pool} shared credits${org.limit === null ? '' : ' (your limit)'}`,
      ]
    : [];
  return allowance === null
    ? [...paidBy, 'Queries left this period: Unlimited', `Credits: ${credits}`]
    : [...paidBy, `Queries left this period: ${allowance}`, `Credits: ${credits}`, `Renews: ${renews}`];
}

/** How much of each build's notes the client prints: a line, not the whole text. */
const NOTES_SUMMARY_LENGTH = 120;

/** A build's notes as one short line of plain text (the Markdown parsed, never shown raw). */
function notesSummary(markdown: string): string {
  const text = notesText(parseReleaseNotes(markdown)).replace(/\s+/g, ' ').trim();
  return text.length > NOTES_SUMMARY_LENGTH ? `${text.slice(0, NOTES_SUMMARY_LENGTH - 1).trimEnd()}…` : text;
}

/**
 * What the plugin should say about its build (the hand-off's `update`, docs/plugin-updates.md):
 * the build to install, whether it must, and what changed; nothing when it is up to date.
 */
export function describeUpdate(update: UpdateCheck | null): string[] {
  if (!update) return [];
  const { latest, withdrawn } = update;
  if (!update.updateAvailable || !latest) {
    // Withdrawn with nothing to move to: still worth saying.
    return withdrawn
      ? [
          `Your build ${withdrawn.version} was withdrawn (${withdrawn.reason}); no other build ships for Unreal Engine ${update.engineVersion} yet`,
        ]
      : [];
  }
  const must = update.reason === 'withdrawn' ? ' (required: your build was withdrawn)' : update.required ? ' (required)' : '';
  const notes = update.releaseNotes.map(
    (release) => `  ${release.version}${release.required ? ' (required)' : ''}: ${notesSummary(release.notes) || 'No notes'}`,
  );
  return [
    `Update available: ${latest.version} for Unreal Engine ${update.engineVersion} — ${latest.downloadUrl}${must}`,
    ...(withdrawn ? [`Your build ${withdrawn.version} was withdrawn: ${withdrawn.reason}`] : []),
    ...(notes.length > 0 ? ["What's new:", ...notes] : []),
  ];
}

const USAGE = `Usage: npx tsx scripts/plugin-login.ts [--server URL] [--port N] [--timeout SECONDS]
       [--engine-version V] [--plugin-version V] [--install ID]

Signs in the way the Sage plugin does (docs/plugin-sign-in.md) and prints the license token, the
install id, what is left to spend, and the update to install, if any (docs/plugin-updates.md).
  --server URL         the Sage Dashboard origin (default: $PUBLIC_URL, else http://localhost:$PORT,
                       as the server derives it; http://localhost:3000 with neither set)
  --port N             loopback port for the hand-off (default: any free port)
  --timeout SECONDS    give up after this long (default 600)
  --engine-version V   the Unreal Engine version to say (shown in "Where you're signed in")
  --plugin-version V   the plugin version to say
  --install ID         the install id an earlier sign-in printed: sign in again as that install`;

/** What the server accepts (contract/epic.ts pluginVersionLabel, publicIdSchema), checked before the browser is involved. */
const VERSION = /^[\x21-\x7e][\x20-\x7e]{0,31}$/;
const INSTALL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const isHttpUrl = (value: string) => /^https?:\/\//.test(value) && URL.canParse(value);

/**
 * The product's origin as the server derives it (server/config.ts): PUBLIC_URL, else localhost on
 * PORT, so a server started with either is found without --server.
 */
function serverFromEnv(env: NodeJS.ProcessEnv): string {
  const publicUrl = env.PUBLIC_URL?.trim();
  if (publicUrl) {
    if (!isHttpUrl(publicUrl)) throw new Error(`PUBLIC_URL must be an http(s) URL, not ${publicUrl}`);
    return publicUrl;
  }
  const port = env.PORT?.trim() || '3000';
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new Error(`PORT must be 0 to 65535, not ${port}`);
  return `http://localhost:${port}`;
}

/** Parses the command line; throws a readable Error on a bad option. */
function parseArgs(args: string[], env: NodeJS.ProcessEnv): PluginLoginOptions | 'help' {
  const options: PluginLoginOptions & Required<Pick<PluginLoginOptions, 'server' | 'port' | 'timeoutMs'>> = {
    server: '',
    port: 0,
    timeoutMs: 600_000,
  };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--help' || flag === '-h') return 'help';
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--server') {
      if (!isHttpUrl(value)) throw new Error(`--server must be an http(s) URL, not ${value}`);
      options.server = value;
    } else if (flag === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) throw new Error('--port must be 0 to 65535');
      options.port = Number(value);
    } else if (flag === '--timeout') {
      if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error('--timeout must be a positive number of seconds');
      options.timeoutMs = Number(value) * 1000;
    } else if (flag === '--engine-version' || flag === '--plugin-version') {
      if (!VERSION.test(value)) throw new Error(`${flag} must be 1 to 32 printable characters`);
      options[flag === '--engine-version' ? 'engineVersion' : 'pluginVersion'] = value;
    } else if (flag === '--install') {
      if (!INSTALL_ID.test(value)) throw new Error('--install must be the install id a sign-in printed');
      options.installId = value;
    } else throw new Error(`Unknown option ${flag}`);
  }
  return { ...options, server: options.server || serverFromEnv(env) };
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2), process.env);
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  const login = await startPluginLogin(options);
  console.log(`Listening for the hand-off on ${login.redirectUri}`);
  console.log('Open this address in your browser to sign in:');
  console.log(`  ${login.loginUrl}`);
  const { token, user, subscription, remaining, installId, update } = await login.result;
  console.log(`Signed in as ${user.username} (${user.email ?? 'no e-mail'})`);
  console.log(`License token: ${token}`);
  // The plugin sends it as X-Sage-Install on its token calls, and with --install on a sign-in again.
  console.log(`Install: ${installId}`);
  console.log(
    `Subscription: ${subscription ? `${subscription.status}${subscription.productName ? ` (${subscription.productName})` : ''}` : 'none'}`,
  );
  for (const line of describeRemaining(remaining)) console.log(line);
  for (const line of describeUpdate(update)) console.log(line);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(`Sign-in failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
