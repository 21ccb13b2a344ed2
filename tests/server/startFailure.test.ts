import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFailureMessage } from '../../server/startFailure';
import { exited, killGroup, productEnv, waitForExit } from '../../scripts/localProduct';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The error Node gives a server whose port is taken. */
function inUse(port: number): Error {
  return Object.assign(new Error(`listen EADDRINUSE: address already in use 127.0.0.1:${port}`), { code: 'EADDRINUSE', port });
}

describe('the message of a failed start', () => {
  it.each([
    [
      'the product’s port',
      inUse(3000),
      { PORT: 3000 },
      'Port 3000 is already in use: stop what is using it, or set PORT to a free port (for example PORT=3001).',
    ],
    [
      'the development identity provider’s port',
      inUse(4000),
      { PORT: 3000, DEV_IDP_PORT: 4000 },
      'Port 4000 is already in use: stop what is using it, or set DEV_IDP_PORT to a free port (for example DEV_IDP_PORT=4001).',
    ],
    [
      'the development Stripe stand-in’s port',
      inUse(4100),
      { PORT: 3000, DEV_IDP_PORT: 0, DEV_STRIPE_PORT: 4100 },
      'Port 4100 is already in use: stop what is using it, or set DEV_STRIPE_PORT to a free port (for example DEV_STRIPE_PORT=4101).',
    ],
    ['a port before the configuration is read', inUse(3000), {}, expect.stringContaining('set PORT to a free port')],
    ['any other error: its message', new Error('DATABASE_URL is not a URL'), { PORT: 3000 }, 'DATABASE_URL is not a URL'],
    ['something thrown that is not an error', 'stopped', { PORT: 3000 }, 'stopped'],
  ])('%s', (_case, error, ports, message) => {
    expect(startFailureMessage(error, ports)).toEqual(message);
  });
});

describe('starting on a port in use', () => {
  it('exits non-zero with one line naming PORT, no stack trace', { timeout: 90_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-port-'));
    // server/main.ts as `npm run dev:server` runs it: what runs is this checkout.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      env: productEnv(port, dataDir, {}, ['VITEST']),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      expect(await waitForExit(child, 80_000)).toBe(true);
      expect(child.exitCode).toBe(1);
      expect(stderr.trim()).toBe(
        `Port ${port} is already in use: stop what is using it, or set PORT to a free port (for example PORT=${port + 1}).`,
      );
    } finally {
      if (!exited(child)) killGroup(child.pid, 'SIGKILL');
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
