// The benchmarks' servers run in processes of their own, as in production: the load generator and
// the measuring client never share the server's event loop.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { exited, freePort, productEnv, waitUntilHealthy } from '../scripts/localProduct';

const ROOT = path.resolve(import.meta.dirname, '..');
const STARTUP_TIMEOUT_MS = 60_000;

export interface Server {
  url: string;
  child: ChildProcess;
  /** From spawning the process to the first 200 of GET /healthz. */
  startupMs: number;
}

const children: ChildProcess[] = [];

/** Starts `node args…` listening on `port` and waits for its /healthz; its output goes to `logFile`. */
export async function startServer(args: string[], env: NodeJS.ProcessEnv, port: number, logFile: string): Promise<Server> {
  const log = fs.openSync(logFile, 'a');
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(url, child, {
    timeoutMs: STARTUP_TIMEOUT_MS,
    label: args.join(' '),
    output: () => `see ${logFile}`,
    intervalMs: 20,
  });
  return { url, child, startupMs: performance.now() - started };
}

/**
 * The product as `npm start` runs it (the compiled server, built first when the sources are newer),
 * in production mode at the default log level, over `dataDir` and PostgreSQL when `databaseUrl` is
 * given. Its log goes to `server.log` in `dataDir`.
 */
export async function startProduct(dataDir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}): Promise<Server> {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  const port = await freePort();
  const env = productEnv(
    port,
    dataDir,
    // The benchmarks' staff sign in with a password alone (decision 046's rule has tests of its own).
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      STAFF_SECOND_FACTOR: 'optional',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...extra,
    },
    [],
  );
  return startServer(['--enable-source-maps', 'dist/server/main.js'], env, port, path.join(dataDir, 'server.log'));
}

/** Ends every server this process started. */
export function stopServers() {
  for (const child of children) if (!exited(child)) child.kill('SIGTERM');
}
