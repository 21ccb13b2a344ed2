import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { logDestination, loggerOptions, OneLinePerRequest, redactUrl } from '../../server/logging';

describe('redactUrl', () => {
  it.each([
    ['/reset-password?token=abc', '/reset-password?token=[redacted]'],
    ['/auth/callback?code=c0de&state=st4te', '/auth/callback?code=[redacted]&state=[redacted]'],
    ['/x?code_verifier=v&keep=1', '/x?code_verifier=[redacted]&keep=1'],
    ['/x?a=1&token=abc&b=2', '/x?a=1&token=[redacted]&b=2'],
    ['/x?token=a&token=b', '/x?token=[redacted]&token=[redacted]'],
    ['/x?TOKEN=abc', '/x?TOKEN=[redacted]'],
    ['/x?tok%65n=abc', '/x?tok%65n=[redacted]'],
    ['/x?token=abc#frag', '/x?token=[redacted]#frag'],
    ['/x?token=', '/x?token=[redacted]'],
  ])('masks %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each(['/api/user', '/x?page=2&sort=name', '/x?token', '/x?tokens=1&mytoken=2', '/x?%zz=1', '/'])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});

describe('loggerOptions', () => {
  it('writes what is at its level or worse to the stream it is given, a request by method, masked URL, host and address only', async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: loggerOptions('warn', { write: (line: string) => void lines.push(line) }) });
    app.get('/reset-password', async (request) => {
      request.log.info('below the level');
      request.log.warn({ req: request }, 'worth a look');
      return 'ok';
    });
    await app.inject({
      method: 'GET',
      url: '/reset-password?token=s3cret',
      headers: { host: 'dash.test', cookie: 'sid=s3cret' },
      remoteAddress: '192.0.2.1',
    });
    await app.close();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; req?: unknown });
    expect(logged.map((line) => line.msg)).toEqual(['worth a look']);
    expect(logged[0]?.req).toEqual({
      method: 'GET',
      url: '/reset-password?token=[redacted]',
      host: 'dash.test',
      remoteAddress: '192.0.2.1',
    });
    expect(lines.join('')).not.toContain('s3cret');
  });
});

describe('logDestination', () => {
  /** A terminal stand-in: what the pretty printer writes to it. */
  function terminal(isTTY: boolean) {
    const stream = Object.assign(new PassThrough(), { isTTY });
    let written = '';
    stream.on('data', (chunk: Buffer) => (written += chunk.toString()));
    return { stream, written: () => written };
  }

  it('prints one readable coloured line per request in development at a terminal, URL masked', async () => {
    const tty = terminal(true);
    const app = Fastify({
      logger: loggerOptions('info', await logDestination('development', tty.stream)),
      logController: new OneLinePerRequest(),
    });
    app.get('/reset-password', async (request) => {
      request.log.warn('worth a look');
      return 'ok';
    });
    await app.inject({ method: 'GET', url: '/reset-password?token=s3cret', headers: { cookie: 'sid=s3cret' } });
    await app.close();
    const lines = tty
      .written()
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;]*m/g, '')
      .trim()
      .split('\n');
    expect(tty.written()).toContain('\x1b[');
    expect(lines).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: worth a look$/),
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/reset-password\?token=\[redacted\] 200 \d+ ms$/),
    ]);
    expect(tty.written()).not.toContain('s3cret');
  });

  it.each([
    ['production at a terminal', 'production', true],
    ['development into a pipe or file', 'development', false],
  ] as const)('writes JSON to stdout asynchronously in %s', async (_case, env, isTTY) => {
    const tty = terminal(isTTY);
    const destination = await logDestination(env, tty.stream);
    expect(destination).toMatchObject({ fd: 1, sync: false });
  });
});
