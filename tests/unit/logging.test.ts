import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl, serializeRequest } from '../../server/logging';

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
  it('logs requests by method, masked URL, host and address only', () => {
    const options = loggerOptions('warn');
    expect(options.level).toBe('warn');
    expect(options).not.toHaveProperty('stream');
    expect(options.serializers?.req).toBe(serializeRequest);
    const logged = serializeRequest({ method: 'GET', url: '/reset-password?token=s3cret', host: 'dash.test', ip: '192.0.2.1' });
    expect(logged).toEqual({ method: 'GET', url: '/reset-password?token=[redacted]', host: 'dash.test', remoteAddress: '192.0.2.1' });
  });

  it('writes to the stream it is given', () => {
    const stream = { write: () => undefined };
    expect(loggerOptions('info', stream).stream).toBe(stream);
  });
});
