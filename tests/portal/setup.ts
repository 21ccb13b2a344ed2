import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, expect, vi } from 'vitest';
import { SCREENS } from '../../src/portal/screens';
import { fakeMediaQueryList } from './media';

// findBy/waitFor give up after 1 s by default, which a busy CI machine (two cores running every
// suite at once) can exceed while rendering MUI; waiting longer costs nothing when tests pass.
configure({ asyncUtilTimeout: 15_000 });

// Each portal screen is a lazily loaded chunk; loaded up front, a screen renders in the same pass
// as in a pre-rendered page, and tests need not wait for chunks. The console's files load their
// own pages (tests/admin/render.tsx) and none of the portal's.
beforeAll(async () => {
  if (/[\\/]tests[\\/]admin[\\/]/.test(expect.getState().testPath ?? '')) return;
  await Promise.all(Object.entries(SCREENS).flatMap(([path, screen]) => (path === 'admin/*' ? [] : [screen.preload()])));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// jsdom lacks matchMedia, which MUI's useMediaQuery reads; default to a desktop-wide screen. (A file
// that renders as the server does runs in Node, with no window: tests/admin/consoleFirstRender.test.tsx.)
if (typeof window !== 'undefined' && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => fakeMediaQueryList(query, false),
  });
}
