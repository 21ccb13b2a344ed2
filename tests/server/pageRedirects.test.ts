import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderPage } from '../../server/plugins/pages';
import { buildExtraApp, databases, TestClient, useTestServer } from './harness';

const documentTitleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** Issue 27: the paths people type for the login page's modes, and the register mode's title. */
describe.each(databases)('login page paths on $label', (database) => {
  const server = useTestServer(database);
  let staticDir: string;

  beforeAll(() => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title></head><body><div id="root"></div></body></html>',
    );
  });
  afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));

  async function withApp(renderPage: RenderPage | undefined, steps: (browser: TestClient) => Promise<void>) {
    const app = await buildExtraApp(server().db, {}, { staticDir, renderPage });
    try {
      await steps(new TestClient(app));
    } finally {
      await app.close();
    }
  }

  it('redirects /register to the register mode and /forgot-password to sign-in, keeping the query', async () => {
    await withApp(undefined, async (browser) => {
      for (const [from, to] of [
        ['/register', '/login?mode=register'],
        ['/register/', '/login?mode=register'],
        ['/register?utm_source=mail', '/login?mode=register&utm_source=mail'],
        // The path's own mode wins over one in the query.
        ['/register?mode=signin&x=1', '/login?mode=register&x=1'],
        ['/forgot-password', '/login'],
        ['/forgot-password?utm_source=mail', '/login?utm_source=mail'],
        ['/signup', '/login'],
      ] as const) {
        const response = await browser.get(from);
        expect([response.statusCode, response.headers.location], from).toEqual([302, to]);
      }
    });
  });

  it('titles the login page Register in register mode, rendered or not', async () => {
    const renderPage: RenderPage = async (url) => ({ html: `<main>${url}</main>`, styles: '' });
    for (const render of [undefined, renderPage]) {
      await withApp(render, async (browser) => {
        // Each twice: signed-out pages are kept, and the kept page of one mode must not answer the other.
        for (let i = 0; i < 2; i++) {
          expect(documentTitleOf((await browser.get('/login?mode=register')).body)).toBe('Register · Sage Dashboard');
          expect(documentTitleOf((await browser.get('/login')).body)).toBe('Sign in · Sage Dashboard');
          expect(documentTitleOf((await browser.get('/login?mode=other')).body)).toBe('Sign in · Sage Dashboard');
        }
      });
    }
  });
});
