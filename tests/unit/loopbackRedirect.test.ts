import { describe, expect, it } from 'vitest';
import { checkLoopbackRedirect } from '../../contract/loopbackRedirect';

const NOT_LOOPBACK = 'The redirect address must be localhost or 127.0.0.1.';
const NO_PORT = 'The redirect address must name a port.';
const NOT_HTTP = 'The redirect address must use http.';
const USER_INFO = 'The redirect address must not contain user information.';
const FRAGMENT = 'The redirect address must not have a fragment.';
const BAD_CHARACTERS = 'The redirect address contains characters that are not allowed.';

describe('checkLoopbackRedirect (product §5: a UE loopback redirect must be localhost or 127.0.0.1 over http)', () => {
  it.each([
    ['http://localhost:8080/callback', 'http://localhost:8080/callback'],
    ['http://127.0.0.1:49152/callback', 'http://127.0.0.1:49152/callback'],
    ['http://127.0.0.1:1/', 'http://127.0.0.1:1/'],
    ['http://localhost:65535/', 'http://localhost:65535/'],
    ['http://localhost:8080', 'http://localhost:8080/'],
    ['http://127.0.0.1:8080/sage/auth/done', 'http://127.0.0.1:8080/sage/auth/done'],
    ['http://127.0.0.1:8080/cb?session=abc&x=1', 'http://127.0.0.1:8080/cb?session=abc&x=1'],
    ['http://localhost:8080?session=abc', 'http://localhost:8080/?session=abc'],
    ['HTTP://LOCALHOST:8080/cb', 'http://localhost:8080/cb'],
  ])('accepts %s', (raw, href) => {
    const result = checkLoopbackRedirect(raw);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.url.href).toBe(href);
  });

  it.each([
    ['', 'The redirect address is missing.'],
    ['https://127.0.0.1:8080/callback', NOT_HTTP],
    ['https://localhost:8080/callback', NOT_HTTP],
    ['javascript:alert(1)//127.0.0.1:8080', NOT_HTTP],
    ['ftp://127.0.0.1:8080/', NOT_HTTP],
    ['//127.0.0.1:8080/callback', NOT_HTTP],
    ['127.0.0.1:8080/callback', NOT_HTTP],
    ['http:/127.0.0.1:8080/callback', NOT_HTTP],
    ['http://example.com:8080/callback', NOT_LOOPBACK],
    ['http://localhost.evil.com:8080/callback', NOT_LOOPBACK],
    ['http://127.0.0.1.nip.io:8080/callback', NOT_LOOPBACK],
    ['http://evil.com?@127.0.0.1:8080/', NOT_LOOPBACK],
    ['http://localhost.:8080/callback', NOT_LOOPBACK],
    ['http://[::1]:8080/callback', NOT_LOOPBACK],
    ['http://0.0.0.0:8080/callback', NOT_LOOPBACK],
    ['http://127.0.0.2:8080/callback', NOT_LOOPBACK],
    ['http://a@127.0.0.1:1/', USER_INFO],
    ['http://user:pass@localhost:8080/', USER_INFO],
    ['http://127.0.0.1:8080@evil.com/', USER_INFO],
    ['http://@127.0.0.1:8080/', USER_INFO],
    ['http://127.0.0.1/callback', NO_PORT],
    ['http://localhost/', NO_PORT],
    ['http://127.0.0.1:/callback', NO_PORT],
    ['http://127.0.0.1:0/callback', NO_PORT],
    // An explicit :80 is the scheme's default, which URL drops: it reads as no port.
    ['http://127.0.0.1:80/callback', NO_PORT],
    ['http://127.0.0.1:00080/callback', NO_PORT],
    ['http:///127.0.0.1:8080/callback', NO_PORT],
    ['http://127.0.0.1:65536/callback', 'The redirect address is not a valid URL.'],
    ['http://127.0.0.1:99999/callback', 'The redirect address is not a valid URL.'],
    ['http://127.0.0.1:123456/callback', 'The redirect address is not a valid URL.'],
    ['http://127.0.0.1:8080/callback#frag', FRAGMENT],
    ['http://127.0.0.1:8080/#', FRAGMENT],
    ['http://evil.com#@127.0.0.1:8080/', FRAGMENT],
    [' http://127.0.0.1:8080/callback', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/callback ', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/call back', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/\tcallback', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/callback\n', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/\u0000', BAD_CHARACTERS],
    ['http://127.0.0.1:8080/\u007f', BAD_CHARACTERS],
    ['http:\\\\127.0.0.1:8080\\callback', BAD_CHARACTERS],
    ['http://evil.com\\@127.0.0.1:8080/', BAD_CHARACTERS],
    ['http://127.0.0.1:8080\\@evil.com/', BAD_CHARACTERS],
  ])('refuses %j', (raw, reason) => {
    expect(checkLoopbackRedirect(raw)).toEqual({ ok: false, reason });
  });

  it('accepts up to 2048 characters and refuses more', () => {
    const prefix = 'http://127.0.0.1:8080/';
    const longest = prefix + 'a'.repeat(2048 - prefix.length);
    expect(checkLoopbackRedirect(longest).ok).toBe(true);
    expect(checkLoopbackRedirect(`${longest}a`)).toEqual({ ok: false, reason: 'The redirect address is too long.' });
  });
});
