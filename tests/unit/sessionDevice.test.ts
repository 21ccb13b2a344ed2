import { describe, expect, it } from 'vitest';
import { USER_AGENT_MAX, clipUserAgent, describeUserAgent, ipNetwork } from '../../server/services/account/sessionDevice';

describe('the browser and OS a user agent names', () => {
  it.each([
    [
      'Chrome on Windows',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      'Chrome',
      'Windows',
    ],
    [
      'Edge on Windows (also says Chrome and Safari)',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
      'Edge',
      'Windows',
    ],
    ['Firefox on Linux', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox', 'Linux'],
    [
      'Safari on macOS',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari',
      'macOS',
    ],
    [
      'Opera on macOS (also says Chrome)',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Safari/537.36 OPR/109.0.0.0',
      'Opera',
      'macOS',
    ],
    [
      'Chrome on Android (says Linux too)',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
      'Chrome',
      'Android',
    ],
    [
      'Safari on an iPhone (says "like Mac OS X")',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
    ],
    [
      'Chrome on an iPad',
      'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
      'Chrome',
      'iOS',
    ],
    [
      'Firefox on an iPhone',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15',
      'Firefox',
      'iOS',
    ],
    [
      'Edge on Android',
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 EdgA/124.0.0.0',
      'Edge',
      'Android',
    ],
    [
      'headless Chromium (the end-to-end stories)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
      'Chrome',
      'Linux',
    ],
    [
      "an app's embedded web view: Safari's engine, not Safari",
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
      'Unknown',
      'iOS',
    ],
    ['a program', 'curl/8.5.0', 'Unknown', 'Unknown'],
    ['an empty header', '', 'Unknown', 'Unknown'],
  ])('%s', (_case, userAgent, browser, os) => {
    expect(describeUserAgent(userAgent)).toEqual({ browser, os });
  });

  it('says Unknown for a session recorded without a user agent', () => {
    expect(describeUserAgent(null)).toEqual({ browser: 'Unknown', os: 'Unknown' });
    expect(describeUserAgent(undefined)).toEqual({ browser: 'Unknown', os: 'Unknown' });
  });
});

describe('the user agent as stored', () => {
  it.each([
    ['kept as sent', 'Mozilla/5.0 Firefox/125.0', 'Mozilla/5.0 Firefox/125.0'],
    ['trimmed', '  Mozilla/5.0  ', 'Mozilla/5.0'],
    ['none when absent', undefined, null],
    ['none when blank', '   ', null],
    ['cut at its longest', 'x'.repeat(USER_AGENT_MAX + 100), 'x'.repeat(USER_AGENT_MAX)],
  ])('%s', (_case, sent, stored) => {
    expect(clipUserAgent(sent)).toBe(stored);
  });
});

describe("an address's network", () => {
  it.each([
    ['an IPv4 address: its /24', '203.0.113.57', '203.0.113.0/24'],
    ['loopback', '127.0.0.1', '127.0.0.0/24'],
    ['the first of its /24', '198.51.100.0', '198.51.100.0/24'],
    ['an IPv4-mapped IPv6 address: the IPv4 /24', '::ffff:203.0.113.57', '203.0.113.0/24'],
    ['an IPv4-mapped one in hex', '::ffff:cb00:7139', '203.0.113.0/24'],
    ['an IPv6 address: its /48', '2001:db8:1234:5678:9abc:def0:1234:5678', '2001:db8:1234::/48'],
    ['leading zeros and upper case', '2001:0DB8:00A1:0000:0000:0000:0000:0001', '2001:db8:a1::/48'],
    ['zeros inside the /48 join the run', '2001:0:0:1::1', '2001::/48'],
    ['a zero group alone stays', '2001:0:5::', '2001:0:5::/48'],
    ['compressed input', '2001:db8::1', '2001:db8::/48'],
    ['a link-local address with its zone', 'fe80::1%eth0', 'fe80::/48'],
    ['IPv6 loopback', '::1', '::/48'],
    ['an IPv4 tail that is not mapped', '64:ff9b::192.0.2.33', '64:ff9b::/48'],
    ['not an address', 'localhost', null],
    ['an IPv4 address out of range', '203.0.113.300', null],
    ['empty', '', null],
    ['absent', undefined, null],
  ])('%s', (_case, address, network) => {
    expect(ipNetwork(address)).toBe(network);
  });
});
