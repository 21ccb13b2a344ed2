import { describe, expect, it } from 'vitest';
import { findUnstorableText, isSingleLine, isStorableText } from '../../contract/text';
import { nestsDeeperThan } from '../../server/requestInput';

describe('what text may hold', () => {
  it.each([
    ['plain text', 'hello', true, true],
    ['an empty string', '', true, true],
    ['letters of any script and emoji (paired surrogates)', 'Grüße 日本 💥', true, true],
    ['a tab and line breaks (free text only)', 'one\ttwo\nthree\r\n', true, false],
    ['U+0000 alone', '\u0000', false, false],
    ['U+0000 inside an address', 'a\u0000@example.com', false, false],
    ['another C0 control', 'a\u0001b', true, false],
    ['escape', 'a\u001bb', true, false],
    ['DEL', 'a\u007fb', true, false],
    ['a lone high surrogate', 'a\ud800', false, false],
    ['a lone low surrogate', '\udfffa', false, false],
    ['two high surrogates', '\ud800\ud800', false, false],
    ['a pair in the wrong order', '\udc00\ud800', false, false],
    ['C1 controls and bidi marks (printable enough to keep)', 'a\u0085\u202eb', true, true],
  ])('%s: storable %s, single line %s', (_name, value, storable, single) => {
    expect(isStorableText(value)).toBe(storable);
    expect(isSingleLine(value)).toBe(single);
  });

  it.each([
    ['nothing wrong', { a: 'x', b: [1, 'y', { c: null }] }, null],
    ['a top-level string', '\u0000', 'the value'],
    ['a field', { email: 'a\u0000' }, 'email'],
    ['a nested field', { a: { b: ['ok', 'x\ud800'] } }, 'a.b[1]'],
    ['a field name', { 'k\u0000': 1 }, 'a field name'],
    ['a nested field name', { a: { 'k\u0000': 1 } }, 'a'],
    ['numbers and booleans only', [1, true, false, null], null],
  ])('finds unstorable text: %s', (_name, value, at) => {
    expect(findUnstorableText(value)).toBe(at);
  });

  it('walks a value nested far deeper than any stack allows', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toMatch(/^(\[0\])+$/);
  });
});

describe('JSON nesting', () => {
  it.each([
    ['a flat object', '{"a":1}', 1, false],
    ['exactly at the limit', '[[[1]]]', 3, false],
    ['one past the limit', '[[[[1]]]]', 3, true],
    ['objects and arrays alike', '{"a":[{"b":[1]}]}', 3, true],
    ['brackets inside strings do not count', '{"a":"[[[[{{{{"}', 1, false],
    ['escaped quotes do not end a string', '{"a":"\\"[[[["}', 1, false],
    ['an escaped backslash before a quote ends it', '{"a":"\\\\"}', 1, false],
    ['siblings are not depth', '[[1],[2],[3],[4]]', 2, false],
    ['broken JSON is left to the parser', '[[[', 5, false],
  ])('%s', (_name, text, limit, deeper) => {
    expect(nestsDeeperThan(text, limit)).toBe(deeper);
  });

  it('stops at the limit of a body nested 20,000 deep', () => {
    expect(nestsDeeperThan(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, 64)).toBe(true);
  });
});
