// A client that stalls is cut (issue 24): its headers or its body within HEADERS_TIMEOUT_MS /
// REQUEST_TIMEOUT_MS, an idle kept-alive connection within KEEP_ALIVE_TIMEOUT_MS. The bounds
// asserted are generous (the machine may be busy); what matters is that the cut comes at all,
// long before the minutes a stalled request used to hold its connection.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SageApp } from '../../server/app';
import { buildExtraApp, databases, type OpenedDatabase } from './harness';

const CONFIGURED_MS = 500;
/** Far above the configured half second, far below the minutes of no limit at all. */
const CUT_WITHIN_MS = 10_000;

/** A raw connection: what it received, and when (ms after opening) the server closed it. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closedAfterMs = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - opened)));
  const ready = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    socket,
    ready,
    received: () => received,
    /** Resolves with the time to the close, or rejects after `CUT_WITHIN_MS`. */
    closed: () =>
      Promise.race([
        closedAfterMs,
        new Promise<number>((_resolve, reject) =>
          setTimeout(() => reject(new Error(`still open after ${CUT_WITHIN_MS} ms`)), CUT_WITHIN_MS).unref(),
        ),
      ]),
  };
}

describe('connection timeouts', () => {
  let opened: OpenedDatabase;
  let app: SageApp;
  let port: number;

  beforeAll(async () => {
    opened = await databases[0]!.open();
    app = await buildExtraApp(opened.db, {
      REQUEST_TIMEOUT_MS: String(CONFIGURED_MS),
      HEADERS_TIMEOUT_MS: String(CONFIGURED_MS),
      KEEP_ALIVE_TIMEOUT_MS: String(CONFIGURED_MS),
    });
    // An answer that takes longer than the timeouts: only the client's part of a request is bounded.
    app.post('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 3 * CONFIGURED_MS));
      return { slow: 'done' };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await app?.close();
    await opened?.dispose();
  });

  it('answers 408 and closes a connection whose headers stall', async () => {
    const client = connect(port);
    await client.ready;
    client.socket.write('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n');
    const after = await client.closed();
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(after).toBeGreaterThanOrEqual(CONFIGURED_MS - 50);
  });

  it('answers 408 and closes a connection whose body stalls halfway', async () => {
    const client = connect(port);
    await client.ready;
    const body = JSON.stringify({ email: 'someone@example.com', password: 'correct-horse-battery' });
    client.socket.write(
      `POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, body.length / 2),
    );
    await client.closed();
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a kept-alive connection left idle', async () => {
    const client = connect(port);
    await client.ready;
    client.socket.write('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await client.closed();
    // One whole answer, kept alive, then the close: no 408 for a connection that asked nothing more.
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(client.received()).toMatch(/keep-alive/i);
    expect(client.received()).not.toMatch(/ 408 /);
  });

  it('lets a slow answer finish: only the request is bounded, not the time to answer it', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([response.status, await response.json()]).toEqual([200, { slow: 'done' }]);
  });

  it('serves ordinary requests as before', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/config`);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('supportEmail');
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-here' }),
    });
    expect(login.status).toBe(401);
  });
});
