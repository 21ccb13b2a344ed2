/**
 * scripts/plugin-login.ts, the reference client of the plugin hand-off (docs/plugin-sign-in.md),
 * against the real server: the app listens on a loopback port for the client's code exchange, a
 * TestClient plays the browser, and the browser's last hop to the loopback listener is real HTTP.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateCheck } from '../../contract/builds';
import { describeRemaining, describeUpdate, startPluginLogin, type PluginLogin } from '../../scripts/plugin-login';
import { utcMonth } from '../../server/services/metering/rules';
import { location, pathOf, signInWithEpic, signUpWithEpic, uniqueDisplayName } from './epicFlow';
import { databases, errorBody, uniqueEmail, useTestServer, type TestServer } from './harness';

const TSX = 'node_modules/.bin/tsx';

/** How the client prints when the allowance renews: `2026-12-01 00:00 UTC`. */
const renewal = (at: Date) => `${at.toISOString().slice(0, 10)} ${at.toISOString().slice(11, 16)} UTC`;
const SCRIPT = 'scripts/plugin-login.ts';

/** Runs the CLI (without the caller's PUBLIC_URL and PORT, plus `env`); `onLine` sees each stdout line as it arrives. */
function runCli(args: string[], onLine: (line: string) => void = () => undefined, env: NodeJS.ProcessEnv = {}) {
  const { PUBLIC_URL: _publicUrl, PORT: _port, ...inherited } = process.env;
  const child = spawn(TSX, [SCRIPT, ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, ...env } });
  const out: string[] = [];
  let err = '';
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      out.push(line);
      onLine(line);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; stdout: string[]; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout: out, stderr: err })),
  );
  return { child, exited };
}

describe.each(databases)('plugin-login reference client on $label', (database) => {
  const server = useTestServer(database);
  let login: PluginLogin | undefined;
  afterEach(() => login?.close());

  /** The app on a real loopback port, where the client exchanges its code. */
  const listen = () => server().app.listen({ port: 0, host: '127.0.0.1' });

  /**
   * The browser's part: a new Epic account signs up from the client's login address, then the
   * /login_completed?client=ue page stores the payload, clears the hand-off and navigates to the
   * loopback address. Returns the loopback listener's answer and the stored code.
   */
  async function browserHandOff(s: TestServer, loginUrl: string, email: string, signedUp?: { displayName: string }) {
    const browser = s.client();
    // `signedUp`: an Epic account that has its e-mail already signs straight in.
    const landed = signedUp
      ? await signInWithEpic(browser, signedUp.displayName, pathOf(loginUrl))
      : await signUpWithEpic(s, browser, { displayName: uniqueDisplayName('Plugin'), email, loginUrl: pathOf(loginUrl) });
    expect(location(landed)).toBe('/login_completed?client=ue');
    const status = await browser.get('/api/auth/status');
    expect(status.json()).toMatchObject({ authenticated: true, ue: { enabled: true } });
    const stored = await browser.post('/api/auth/ue-store-payload');
    expect(stored.statusCode, stored.body).toBe(200);
    const { code, redirectUrl } = stored.json<{ ok: true; code: string; redirectUrl: string }>();
    const cleared = await browser.post('/api/auth/ue-clear');
    expect(cleared.json()).toMatchObject({ ok: true });
    // The hand-off context is gone: the page now shows its plain success.
    expect((await browser.get('/api/auth/status')).json()).toMatchObject({ authenticated: true, ue: { enabled: false } });
    const loopback = await fetch(redirectUrl, { redirect: 'manual' });
    return { loopback, code, redirectUrl };
  }

  const licenseTokenOf = async (s: TestServer, email: string) =>
    (await s.db.selectFrom('users').select('license_token').where('email', '=', email).executeTakeFirstOrThrow()).license_token;

  it('signs a new user up and receives the license token through the loopback hand-off', async () => {
    const address = await listen();
    login = await startPluginLogin({ server: address, timeoutMs: 20_000 });
    expect(login.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const sent = new URL(login.loginUrl);
    expect(sent.origin + sent.pathname).toBe(`${address}/api/auth/login`);
    expect(Object.fromEntries(sent.searchParams)).toMatchObject({
      client: 'ue',
      redirect_uri: login.redirectUri,
      code_challenge_method: 'S256',
    });

    const email = uniqueEmail('plugin');
    const { loopback, code, redirectUrl } = await browserHandOff(server(), login.loginUrl, email);
    expect(new URL(redirectUrl).searchParams.get('state')).toBe(sent.searchParams.get('state'));
    expect(loopback.status).toBe(302);
    expect(loopback.headers.get('location')).toBe(`${address}/login_completed?client=ue`);

    const payload = await login.result;
    expect(payload).toMatchObject({ user: { email }, subscription: null, credits: 0, remaining: { allowance: 0, credits: 0 } });
    expect(payload.token).toBe(await licenseTokenOf(server(), email));
    // The client spent the code: nobody can exchange it again.
    const again = await server()
      .client()
      .get(`/api/auth/ue-payload?code=${code}&code_verifier=${'v'.repeat(43)}`);
    expect(again.statusCode).toBe(400);
    expect(errorBody(again).error).toBe('invalid_grant');
    // One hand-off per listener: it has stopped listening.
    await expect(fetch(login.redirectUri)).rejects.toThrow();
  });

  it('says its versions at the start, and with the install id it was given signs in again as the same install', async () => {
    const address = await listen();
    login = await startPluginLogin({ server: address, timeoutMs: 20_000, engineVersion: '5.4.2', pluginVersion: '1.3.0' });
    expect(Object.fromEntries(new URL(login.loginUrl).searchParams)).toMatchObject({ engineVersion: '5.4.2', pluginVersion: '1.3.0' });
    const email = uniqueEmail('plugin');
    await browserHandOff(server(), login.loginUrl, email);
    const first = await login.result;
    const installsOf = () => server().db.selectFrom('plugin_installs').selectAll().where('user_id', '=', first.user.id).execute();
    expect(await installsOf()).toEqual([
      expect.objectContaining({ id: first.installId, engine_version: '5.4.2', plugin_version: '1.3.0' }),
    ]);

    const { epic_display_name: displayName } = await server()
      .db.selectFrom('users')
      .select('epic_display_name')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    login = await startPluginLogin({ server: address, timeoutMs: 20_000, pluginVersion: '1.4.0', installId: first.installId });
    await browserHandOff(server(), login.loginUrl, email, { displayName: displayName ?? '' });
    expect((await login.result).installId).toBe(first.installId);
    expect(await installsOf()).toEqual([
      expect.objectContaining({ id: first.installId, engine_version: '5.4.2', plugin_version: '1.4.0' }),
    ]);
  });

  it('refuses a request with the wrong state (400) and keeps waiting for the real hand-off', async () => {
    const address = await listen();
    login = await startPluginLogin({ server: address, timeoutMs: 20_000 });
    const forged = await fetch(`${login.redirectUri}?code=forged&state=not-ours`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('does not belong to the sign-in in progress');
    expect((await fetch(`${login.redirectUri}?code=forged`)).status).toBe(400);
    expect((await fetch(new URL('/favicon.ico', login.redirectUri))).status).toBe(404);
    expect((await fetch(new URL('/other?code=x', login.redirectUri))).status).toBe(404);

    const email = uniqueEmail('plugin');
    const { loopback } = await browserHandOff(server(), login.loginUrl, email);
    expect(loopback.status).toBe(302);
    expect((await login.result).token).toBe(await licenseTokenOf(server(), email));
  });

  it('fails clearly on an error with our state, and on a code the server refuses', async () => {
    const address = await listen();
    login = await startPluginLogin({ server: address, timeoutMs: 20_000 });
    const state = new URL(login.loginUrl).searchParams.get('state') ?? '';
    const denied = await fetch(`${login.redirectUri}?error=access_denied&error_description=Canceled&state=${state}`);
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain('access_denied: Canceled');
    await expect(login.result).rejects.toThrow('The sign-in did not complete (access_denied: Canceled)');

    login = await startPluginLogin({ server: address, timeoutMs: 20_000 });
    const ours = new URL(login.loginUrl).searchParams.get('state') ?? '';
    const refused = await fetch(`${login.redirectUri}?code=never-issued&state=${ours}`);
    expect(refused.status).toBe(502);
    expect(await refused.text()).toContain('The code is invalid or has already been used');
    await expect(login.result).rejects.toThrow(
      'The server refused the code: 400 invalid_grant The code is invalid or has already been used',
    );
  });

  it('fails to start when its port is taken', async () => {
    login = await startPluginLogin({ server: 'http://127.0.0.1:9', timeoutMs: 20_000 });
    const port = Number(new URL(login.redirectUri).port);
    await expect(startPluginLogin({ server: 'http://127.0.0.1:9', port, timeoutMs: 20_000 })).rejects.toThrow('EADDRINUSE');
  });

  it('gives up after its timeout and stops listening', async () => {
    login = await startPluginLogin({ server: 'http://127.0.0.1:9', timeoutMs: 50 });
    await expect(login.result).rejects.toThrow('No sign-in arrived within');
    await expect(fetch(login.redirectUri)).rejects.toThrow();
  });

  it('runs as a CLI: prints the login address, then the user and license token, and exits 0', async () => {
    const address = await listen();
    let loginUrl: (url: string) => void = () => undefined;
    const printed = new Promise<string>((resolve) => (loginUrl = resolve));
    let previous = '';
    const cli = runCli(['--server', address, '--timeout', '60'], (line) => {
      if (previous === 'Open this address in your browser to sign in:') loginUrl(line.trim());
      previous = line;
    });
    try {
      const email = uniqueEmail('cli');
      const { loopback } = await browserHandOff(server(), await printed, email);
      expect(loopback.status).toBe(302);
      const { code, stdout, stderr } = await cli.exited;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const [listening, open, url, ...rest] = stdout;
      expect(listening).toMatch(/^Listening for the hand-off on http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(open).toBe('Open this address in your browser to sign in:');
      expect(url).toMatch(new RegExp(`^  ${address}/api/auth/login\\?client=ue&`));
      const user = await server()
        .db.selectFrom('users')
        .select(['id', 'username', 'license_token'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const install = await server().db.selectFrom('plugin_installs').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(rest).toEqual([
        `Signed in as ${user.username} (${email})`,
        `License token: ${user.license_token}`,
        `Install: ${install.id}`,
        'Subscription: none',
        'Queries left this period: 0',
        'Credits: 0',
        `Renews: ${renewal(new Date(utcMonth(Date.now()).end))}`,
      ]);
    } finally {
      cli.child.kill();
    }
  });
});

describe('plugin-login: what is left, as printed', () => {
  it.each([
    [
      'an allowance with queries left',
      { allowance: 42, credits: 7, periodEnd: '2026-12-14T09:30:00.000Z' },
      ['Queries left this period: 42', 'Credits: 7', 'Renews: 2026-12-14 09:30 UTC'],
    ],
    [
      'a used-up allowance and no credits',
      { allowance: 0, credits: 0, periodEnd: '2027-01-01T00:00:00.000Z' },
      ['Queries left this period: 0', 'Credits: 0', 'Renews: 2027-01-01 00:00 UTC'],
    ],
    [
      'Unlimited, which has nothing to renew',
      { allowance: null, credits: 120, periodEnd: '2026-12-14T09:30:00.000Z' },
      ['Queries left this period: Unlimited', 'Credits: 120'],
    ],
    [
      "a seat holder's studio, which pays first",
      {
        allowance: 0,
        credits: 0,
        periodEnd: '2027-01-01T00:00:00.000Z',
        org: { orgId: 'o1', name: 'Grove Studio', seat: 950, pool: 40, limit: 40, periodEnd: '2026-12-14T09:30:00.000Z' },
      },
      [
        'Paid by Grove Studio: 950 on your seat, 40 shared credits (your limit)',
        'Queries left this period: 0',
        'Credits: 0',
        'Renews: 2027-01-01 00:00 UTC',
      ],
    ],
  ])('prints %s', (_name, remaining, lines) => {
    expect(describeRemaining(remaining)).toEqual(lines);
  });
});

describe('plugin-login: the update, as printed', () => {
  const URL_56 = 'https://dl.test/1.2.0/ue5.6.zip';
  const release = (version: string, notes: string, required = false) => ({
    version,
    releasedAt: '2026-12-01T10:00:00.000Z',
    notes,
    required,
  });
  const latest = { ...release('1.2.0', 'Faster'), downloads: [{ engineVersion: '5.6' as const, url: URL_56 }], downloadUrl: URL_56 };
  const base: UpdateCheck = {
    engineVersion: '5.6',
    pluginVersion: '1.0.0',
    updateAvailable: true,
    required: false,
    reason: null,
    latest,
    withdrawn: null,
    releaseNotes: [release('1.2.0', '- **Faster** [search](https://example.test)\n- Fewer crashes'), release('1.1.0', '')],
  };
  const long = 'word '.repeat(40);

  it.each<[string, UpdateCheck | null, string[]]>([
    ['nothing when the plugin said no versions', null, []],
    ['nothing when up to date', { ...base, updateAvailable: false, pluginVersion: '1.2.0', releaseNotes: [] }, []],
    [
      'the build, its download and the notes as plain text',
      base,
      [
        `Update available: 1.2.0 for Unreal Engine 5.6 — ${URL_56}`,
        "What's new:",
        '  1.2.0: Faster search Fewer crashes',
        '  1.1.0: No notes',
      ],
    ],
    [
      'a required update, and which build required it',
      { ...base, required: true, reason: 'required_update', releaseNotes: [release('1.2.0', 'Fix', true)] },
      [`Update available: 1.2.0 for Unreal Engine 5.6 — ${URL_56} (required)`, "What's new:", '  1.2.0 (required): Fix'],
    ],
    [
      'a withdrawn build, and why',
      {
        ...base,
        pluginVersion: '1.3.0',
        required: true,
        reason: 'withdrawn',
        withdrawn: { version: '1.3.0', reason: 'Crashes on load' },
        releaseNotes: [release('1.2.0', 'Faster')],
      },
      [
        `Update available: 1.2.0 for Unreal Engine 5.6 — ${URL_56} (required: your build was withdrawn)`,
        'Your build 1.3.0 was withdrawn: Crashes on load',
        "What's new:",
        '  1.2.0: Faster',
      ],
    ],
    [
      'a withdrawn build with nothing to move to',
      { ...base, updateAvailable: false, latest: null, withdrawn: { version: '1.0.0', reason: 'Broken' }, releaseNotes: [] },
      ['Your build 1.0.0 was withdrawn (Broken); no other build ships for Unreal Engine 5.6 yet'],
    ],
    [
      'long notes cut to a line',
      { ...base, releaseNotes: [release('1.2.0', long)] },
      [`Update available: 1.2.0 for Unreal Engine 5.6 — ${URL_56}`, "What's new:", `  1.2.0: ${long.slice(0, 119).trimEnd()}…`],
    ],
  ])('prints %s', (_name, update, lines) => {
    expect(describeUpdate(update)).toEqual(lines);
  });
});

describe('plugin-login CLI', () => {
  it('prints its usage with --help', async () => {
    const { code, stdout } = await runCli(['--help']).exited;
    expect(code).toBe(0);
    expect(stdout[0]).toBe('Usage: npx tsx scripts/plugin-login.ts [--server URL] [--port N] [--timeout SECONDS]');
  });

  /** The login address the CLI prints with `env` and no --server; the CLI is stopped then. */
  async function loginAddressWith(env: NodeJS.ProcessEnv): Promise<string> {
    let found: (url: string) => void = () => undefined;
    const printed = new Promise<string>((resolve) => (found = resolve));
    const cli = runCli([], (line) => line.startsWith('  http') && found(line.trim()), env);
    try {
      return await Promise.race([
        printed,
        cli.exited.then(({ stderr }) => {
          throw new Error(`the CLI exited: ${stderr}`);
        }),
      ]);
    } finally {
      cli.child.kill();
    }
  }

  it('signs in at the server PUBLIC_URL names, else at localhost on PORT, as the server derives its origin', async () => {
    expect(await loginAddressWith({ PUBLIC_URL: 'https://dash.example.com/', PORT: '4000' })).toMatch(
      /^https:\/\/dash\.example\.com\/api\/auth\/login\?client=ue&/,
    );
    expect(await loginAddressWith({ PORT: '4000' })).toMatch(/^http:\/\/localhost:4000\/api\/auth\/login\?client=ue&/);
    expect(await loginAddressWith({})).toMatch(/^http:\/\/localhost:3000\/api\/auth\/login\?client=ue&/);
  });

  it('exits 1 naming PUBLIC_URL when it is not an http(s) URL', async () => {
    const { code, stderr } = await runCli([], undefined, { PUBLIC_URL: 'dash.example.com' }).exited;
    expect(code).toBe(1);
    expect(stderr).toContain('PUBLIC_URL must be an http(s) URL, not dash.example.com');
  });

  it('exits 1 with a message on stderr for a bad option', async () => {
    const { code, stdout, stderr } = await runCli(['--port', 'many']).exited;
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toContain('--port must be 0 to 65535');
  });

  it.each([
    [['--install', 'not-an-id'], '--install must be the install id a sign-in printed'],
    [['--engine-version', ''], '--engine-version must be 1 to 32 printable characters'],
    [['--plugin-version', 'v'.repeat(33)], '--plugin-version must be 1 to 32 printable characters'],
  ])('exits 1 before listening for %j', async (args, message) => {
    const { code, stdout, stderr } = await runCli(args).exited;
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toContain(message);
  });
});
