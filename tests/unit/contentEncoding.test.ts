import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressBody, negotiateEncoding, type ContentEncoding } from '../../server/plugins/compression';

describe('negotiateEncoding', () => {
  const table: [string | undefined, ContentEncoding, string][] = [
    [undefined, 'identity', 'no header: no preference, and identity is what everyone reads'],
    ['', 'identity', 'empty header: identity only'],
    ['gzip, deflate, br, zstd', 'br', "Chromium's header"],
    ['gzip, deflate, br', 'br', "Firefox's and Safari's header"],
    ['gzip, deflate', 'gzip', 'no brotli'],
    ['gzip', 'gzip', 'gzip alone'],
    ['x-gzip', 'gzip', 'x-gzip is gzip (RFC 9110 §8.4.1.3)'],
    ['br', 'br', 'brotli alone'],
    ['deflate', 'identity', 'only codings we do not send'],
    ['identity', 'identity', 'identity named'],
    ['gzip, br', 'br', 'brotli preferred at equal q, whatever the order'],
    ['br;q=0.5, gzip;q=0.8', 'gzip', 'a higher q wins over our preference'],
    ['br;q=0.8, gzip;q=0.5', 'br', 'q-values honoured'],
    ['br;q=0, gzip', 'gzip', 'q=0 refuses brotli'],
    ['br;q=0, gzip;q=0', 'identity', 'both refused'],
    ['br;q=0.000, gzip;q=0.0', 'identity', 'zero written with decimals'],
    ['gzip;q=1.0, br;q=1.000', 'br', 'one written with decimals'],
    ['*', 'br', 'anything goes'],
    ['*;q=0.5', 'br', 'the wildcard covers br and gzip'],
    ['gzip, *;q=0.1', 'gzip', 'a named coding beats the wildcard'],
    ['*, br;q=0', 'gzip', 'the wildcard covers what is not named'],
    ['*;q=0', 'identity', 'everything refused: identity anyway (no 406 for a page)'],
    ['BR, GZIP', 'br', 'codings are case-insensitive'],
    ['  gzip ;  Q=0.9 ,br ; q = 0.4 ', 'gzip', 'whitespace and an upper-case Q'],
    ['br;q=2, gzip', 'gzip', 'an out-of-range q counts as refused'],
    ['br;q=abc, gzip;q=0.3', 'gzip', 'a malformed q counts as refused'],
    ['identity;q=1, br;q=0.5', 'identity', 'identity preferred by q'],
    ['identity;q=0.5, br;q=0.5', 'br', 'compression preferred at equal q'],
    [',, ;q=1, gzip', 'gzip', 'empty members ignored'],
    ['br;level=5;q=0.7, gzip;q=0.6', 'br', 'other parameters ignored'],
    ['gzip;q=0, gzip;q=0.5', 'gzip', 'a coding named twice: the higher q'],
    ['br;q=0.001', 'br', 'the lowest q a browser can write still beats unnamed identity'],
    ['*;q=0, identity', 'identity', 'everything refused but identity'],
  ];

  it.each(table)('%j → %s (%s)', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressBody', () => {
  it('holds the body in each encoding, brotli and gzip both decoding to the original', () => {
    const html = `<!doctype html><html><body>${'<p>Sage</p>'.repeat(500)}</body></html>`;
    const body = compressBody(html);
    expect(body.identity.toString()).toBe(html);
    expect(zlib.brotliDecompressSync(body.br).toString()).toBe(html);
    expect(zlib.gunzipSync(body.gzip).toString()).toBe(html);
    expect(body.br.length).toBeLessThan(body.gzip.length);
  });
});
