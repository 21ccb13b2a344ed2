// What the end-to-end harness and the benchmarks share to run the product on this machine: a free
// loopback port, its environment, and Debian's Chromium. No test runner or browser driver here,
// so a benchmark can use it without loading vitest or playwright.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Without the background-networking flags Chromium floods this offline machine with refused connections. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('could not get a free port'));
        return;
      }
      const { port } = address;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The product's environment on `port` with a fresh data directory: the caller's, minus anything
 * that would point it at outside services, and minus variables starting with `dropPrefixes`.
 */
export function productEnv(port: number, dataDir: string, extra: Record<string, string>, dropPrefixes: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const dropped = new Set(['NODE_ENV', 'DATABASE_URL', 'SMTP_URL', 'REDIS_URL', 'HOST', 'PUBLIC_URL', 'PORT', 'DATA_DIR']);
  for (const [key, value] of Object.entries(process.env)) {
    if (dropped.has(key) || key.startsWith('DEFAULT_BUILD_') || dropPrefixes.some((prefix) => key.startsWith(prefix))) continue;
    env[key] = value;
  }
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Whether a child process has ended (by itself or by a signal). */
export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Resolves true when the child has ended, false after `timeoutMs` if it has not. */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Signals a whole process group (a child spawned `detached`, with whatever it started in turn). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Polls `url`/healthz until it answers 200. Throws, with `output()` (what the child printed), when
 * the child ends first or `timeoutMs` passes.
 */
export async function waitUntilHealthy(
  url: string,
  child: ChildProcess,
  opts: { timeoutMs: number; label: string; output: () => string; intervalMs?: number },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (exited(child)) {
      const how = child.signalCode ? `killed by ${child.signalCode}` : `exit code ${String(child.exitCode)}`;
      throw new Error(`The ${opts.label} exited before it was ready (${how}):\n${opts.output()}`);
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline)
      throw new Error(`The ${opts.label} did not answer GET /healthz within ${opts.timeoutMs / 1000} s:\n${opts.output()}`);
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 200));
  }
}
