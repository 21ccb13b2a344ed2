import { describe, expect, it } from 'vitest';
import { documentTitle, pageFor, pageTitle, redirectLocation } from '../../contract/pages';

describe('redirectLocation', () => {
  it.each([
    ['/', '', '/download'],
    ['/', '?utm_source=x', '/download?utm_source=x'],
    ['/signup', '', '/login'],
    ['/signup', '?next=1', '/login?next=1'],
    ['/register', '', '/login?mode=register'],
    ['/register/', '?a=1&b=2', '/login?mode=register&a=1&b=2'],
    ['/register', '?mode=signin&a=1', '/login?mode=register&a=1'],
    ['/forgot-password', '', '/login'],
    ['/forgot-password', '?a=1', '/login?a=1'],
    ['/login', '?mode=register', undefined],
    ['/download', '', undefined],
  ])('%s%s → %s', (pathname, search, expected) => {
    expect(redirectLocation(pathname, search)).toBe(expected);
  });
});

describe('pageFor a redirecting path', () => {
  it.each(['/register', '/forgot-password', '/signup'])('%s is the login page', (pathname) => {
    expect(pageFor(pathname).path).toBe('login');
  });
});

describe('pageTitle', () => {
  const login = pageFor('/login');
  it.each([
    ['', 'Sign in'],
    ['mode=register', 'Register'],
    ['mode=signin', 'Sign in'],
    ['mode=toString', 'Sign in'],
    ['mode=', 'Sign in'],
  ])('login with ?%s is titled %s', (query, title) => {
    expect(pageTitle(login, new URLSearchParams(query))).toBe(title);
  });

  it('leaves a page without titled parameters at its title', () => {
    expect(documentTitle(pageFor('/download'), new URLSearchParams('mode=register'))).toBe('Download Sage · Sage Dashboard');
    expect(documentTitle(login)).toBe('Sign in · Sage Dashboard');
  });
});
