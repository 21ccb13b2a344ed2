import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, pingDatabase } from '../../server/db';
import { drain, readiness } from '../../server/plugins/readiness';
import { serializerCompiler } from '../../server/responseSerializer';
import { createMemoryRateLimiter, createRedisRateLimiter } from '../../server/services/rateLimiter';
import type { SageApp } from '../../server/app';
import { exited, freePort, killGroup, productEnv, waitForExit, waitUntilHealthy } from '../../scripts/localProduct';
import { closedLoopbackPort } from './epicFlow';
import { buildExtraApp, databases, useTestServer } from './harness';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const redisUrl = process.env.TEST_REDIS_URL;

/** A raw HTTP/1.1 connection, to hold a request half-sent and read answers as they come. */
class RawConnection {
  readonly socket: net.Socket;
  received = '';
  readonly closed: Promise<void>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString()));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  async open(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
    return this;
  }

  write(text: string) {
    this.socket.write(text);
  }

  /** Waits for the n-th complete answer (status line, headers and body by Content-Length). */
  async answer(n = 1, timeoutMs = 20_000): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answers = parseAnswers(this.received);
      const found = answers[n - 1];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer #${n} within ${timeoutMs} ms; received: ${JSON.stringify(this.received)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function parseAnswers(text: string) {
  const answers: { status: number; headers: Record<string, string>; body: string }[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return answers;
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

/** Whether a new connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const readyzRequest = 'GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n';

describe.each(databases)('GET /readyz on $label', (database) => {
  const server = useTestServer(database);
  const extraApps: SageApp[] = [];
  const dataDirs: string[] = [];
  /** A data directory of the test's own, removed after it. */
  const tempDataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-readyz-'));
    dataDirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const app of extraApps.splice(0)) await app.close();
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is ready while the database answers', async () => {
    const response = await server().app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('names the database when it does not answer, and leaves /healthz as it was', async () => {
    const broken =
      database.kind === 'postgres'
        ? openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await closedLoopbackPort()}/none`, dataDir: os.tmpdir() })
        : openDatabase({ dataDir: tempDataDir() });
    if (database.kind === 'sqlite') {
      // Kysely closes only a database it has opened: use it once, then close it under the app.
      expect(await pingDatabase(broken)).toBe(true);
      await broken.destroy();
    }
    const app = await buildExtraApp(broken);
    extraApps.push(app);
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failed: ['database'] });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'unavailable' });
    if (database.kind === 'postgres') await broken.destroy();
  });

  it('names Redis when the rate limiter cannot reach it', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await closedLoopbackPort()}`);
    redis.on('error', () => undefined);
    const app = await buildExtraApp(server().db, {}, { rateLimiter: createRedisRateLimiter(redis) });
    extraApps.push(app);
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failed: ['redis'] });
  });

  it.skipIf(!redisUrl)('is ready when the rate limiter reaches Redis', async () => {
    const redis = new Redis(redisUrl!);
    const app = await buildExtraApp(server().db, {}, { rateLimiter: createRedisRateLimiter(redis) });
    extraApps.push(app);
    await until(() => redis.status === 'ready', 'Redis connected');
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect([response.statusCode, response.json()]).toEqual([200, { status: 'ready' }]);
  });
});

describe('readiness checks', () => {
  it('answer within the time limit even when a check hangs', async () => {
    const app = Fastify();
    app.setSerializerCompiler(serializerCompiler);
    await app.register(readiness, {
      databaseReachable: () => new Promise<boolean>(() => undefined),
      rateLimiter: createMemoryRateLimiter(),
      timeoutMs: 100,
    });
    const started = Date.now();
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect([response.statusCode, response.json()]).toEqual([503, { status: 'unavailable', failed: ['database'] }]);
    await app.close();
  });
});

describe('drain', () => {
  let app: SageApp | undefined;
  let port = 0;
  /** Releases the requests waiting in GET /slow. */
  let release: () => void = () => undefined;
  let slowArrived = false;

  /** The app on a real port, with a test route that answers only once released. */
  async function listening() {
    const opened = await databases[0]!.open();
    app = await buildExtraApp(opened.db);
    app.addHook('onClose', () => opened.dispose());
    const gate = new Promise<void>((resolve) => (release = resolve));
    slowArrived = false;
    app.get('/slow', async () => {
      slowArrived = true;
      await gate;
      return { slow: 'done' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    return app;
  }

  afterEach(async () => {
    release();
    if (app?.server.listening) await app.close();
    app = undefined;
  });

  it('turns /readyz to draining, refuses new connections and lets the request in flight finish', async () => {
    const instance = await listening();
    const idle = await new RawConnection(port).open();
    idle.write(`${readyzRequest}\r\n`);
    expect(JSON.parse((await idle.answer()).body)).toEqual({ status: 'ready' });

    const slow = await new RawConnection(port).open();
    slow.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    // A request under way on a kept-alive connection: its headers are not all there yet.
    const late = await new RawConnection(port).open();
    late.write(readyzRequest);
    await until(() => slowArrived, 'the slow request is in flight');

    const drained = drain(instance, { forceCloseAfterMs: 5000, reapIntervalMs: 50 });
    await until(() => refused(port), 'new connections refused');
    await idle.closed;

    late.write('\r\n');
    const answer = await late.answer();
    expect([answer.status, JSON.parse(answer.body)]).toEqual([503, { status: 'draining' }]);
    expect(answer.headers.connection).toBe('close');
    await late.closed;
    expect(slow.received).toBe('');

    release();
    const done = await slow.answer();
    expect([done.status, JSON.parse(done.body)]).toEqual([200, { slow: 'done' }]);
    await slow.closed;
    expect(await drained).toEqual({ forced: false });
  });

  it('cuts what is still open at the deadline', async () => {
    const instance = await listening();
    const slow = await new RawConnection(port).open();
    slow.write('GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => slowArrived, 'the slow request is in flight');
    const started = Date.now();
    expect(await drain(instance, { forceCloseAfterMs: 300 })).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(2000);
    await slow.closed;
    expect(slow.received).toBe('');
  });
});

describe('SIGTERM', () => {
  it('drains the running product and exits within 10 s', { timeout: 90_000 }, async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-drain-'));
    const url = `http://127.0.0.1:${port}`;
    // server/main.ts as `npm run dev:server` runs it: no build needed, and what runs is this checkout.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      env: productEnv(port, dataDir, {}, ['VITEST']),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitUntilHealthy(url, child, { timeoutMs: 60_000, label: 'product', output: () => output });
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ready' });

      // In flight: a password-reset request whose body is still arriving.
      const body = JSON.stringify({ email: 'nobody@example.com' });
      const upload = await new RawConnection(port).open();
      upload.write(
        `POST /api/forgot-password HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      const late = await new RawConnection(port).open();
      late.write(readyzRequest);
      await new Promise((resolve) => setTimeout(resolve, 100));

      const signalled = Date.now();
      child.kill('SIGTERM');
      await until(() => refused(port), 'new connections refused');
      late.write('\r\n');
      const draining = await late.answer();
      expect([draining.status, JSON.parse(draining.body), draining.headers.connection]).toEqual([503, { status: 'draining' }, 'close']);

      upload.write(body.slice(10));
      const answered = await upload.answer();
      expect(answered.status, answered.body).toBe(200);
      expect(JSON.parse(answered.body)).toMatchObject({ ok: true });

      expect(await waitForExit(child, 10_000)).toBe(true);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(child.exitCode, output).toBe(0);
    } finally {
      if (!exited(child)) killGroup(child.pid, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
