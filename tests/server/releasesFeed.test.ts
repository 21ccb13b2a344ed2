/**
 * The release channel's public faces (issue 41): GET /releases.atom, an Atom 1.0 feed of the builds
 * offered, and the download page pre-rendered with those builds in its boot data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { BootData } from '../../contract/boot';
import type { RenderPage } from '../../server/plugins/pages';
import { createAuditService } from '../../server/services/audit';
import { type BuildRelease, createBuildService } from '../../server/services/builds';
import { buildExtraApp, databases, PUBLIC_URL, useTestServer } from './harness';

const ATOM = 'http://www.w3.org/2005/Atom';

interface Entry {
  id: string;
  title: string;
  updated: string;
  content: string;
  contentType: string | undefined;
}

/** The feed read by an XML parser (it throws on anything not well-formed): its own fields and its entries. */
function readFeed(xml: string) {
  const parser = new SaxesParser({ xmlns: true });
  const feed: Record<string, string> = {};
  const links: { rel: string; href: string }[] = [];
  const entries: Entry[] = [];
  const stack: string[] = [];
  let entry: Entry | null = null;
  let text = '';
  let root = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    if (stack.length === 0) root = `${tag.uri} ${tag.local}`;
    stack.push(tag.local);
    text = '';
    if (tag.local === 'entry') entry = { id: '', title: '', updated: '', content: '', contentType: undefined };
    if (tag.local === 'content' && entry) entry.contentType = tag.attributes.type?.value;
    if (tag.local === 'link' && stack.length === 2)
      links.push({ rel: tag.attributes.rel?.value ?? '', href: tag.attributes.href?.value ?? '' });
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    if (tag.local === 'entry' && entry) {
      entries.push(entry);
      entry = null;
    } else if (entry && ['id', 'title', 'updated', 'content'].includes(tag.local)) {
      entry[tag.local as 'id' | 'title' | 'updated' | 'content'] = text;
    } else if (!entry && stack.length === 1) {
      feed[tag.local] = text;
    }
    text = '';
  });
  parser.write(xml).close();
  return { root, feed, links, entries };
}

const build = (version: string, notes: string, engines: Partial<Record<'54' | '55' | '56' | '57', boolean>>): BuildRelease => ({
  version,
  ue54Url: engines['54'] ? `https://dl.test/${version}/ue5.4.zip` : '',
  ue55Url: engines['55'] ? `https://dl.test/${version}/ue5.5.zip` : '',
  ue56Url: engines['56'] ? `https://dl.test/${version}/ue5.6.zip` : '',
  ue57Url: engines['57'] ? `https://dl.test/${version}/ue5.7.zip` : '',
  notes,
});

const HOSTILE = [
  '## Fixes <script>alert(1)</script>',
  '',
  '- [click](javascript:alert) and [docs](https://docs.test/a?b=1&c=2)',
  '- "quotes" & \'apostrophes\' ]]> <![CDATA[ x ]]> \u0001 control',
].join('\n');

describe.each(databases)('the releases feed on $label', (database) => {
  const server = useTestServer(database);

  // Kept in this order: the suite's database has no build until the second test releases some.
  it('is an empty, well-formed Atom feed before any release, dated at a fixed instant', async () => {
    const response = await server().client().get('/releases.atom');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    const { root, feed, links, entries } = readFeed(response.body);
    expect(root).toBe(`${ATOM} feed`);
    expect(feed).toMatchObject({ id: `${PUBLIC_URL}/releases.atom`, title: 'Sage releases', updated: '1970-01-01T00:00:00.000Z' });
    expect(links).toEqual([
      { rel: 'self', href: `${PUBLIC_URL}/releases.atom` },
      { rel: 'alternate', href: `${PUBLIC_URL}/download` },
    ]);
    expect(entries).toEqual([]);
  });

  it('lists every build offered, newest first, without the withdrawn one, its notes escaped, with a download per engine', async () => {
    const builds = createBuildService(server().db, createAuditService(server().db));
    await builds.release(build('2026-03-01a', 'First **build**.', { '55': true, '56': true }), null);
    await builds.release(build('2026-04-01a', 'Broken.', { '56': true }), null);
    await builds.release(build('2026-05-01a', HOSTILE, { '54': true, '57': true }), null);
    await builds.withdraw('2026-04-01a', 'It crashed', null);
    const released = await builds.releases();

    const response = await server().client().get('/releases.atom');
    expect(response.statusCode).toBe(200);
    const { feed, entries } = readFeed(response.body);
    expect(entries.map((entry) => entry.title)).toEqual(['Sage 2026-05-01a', 'Sage 2026-03-01a']);
    expect(entries.map((entry) => entry.id)).toEqual([`${PUBLIC_URL}/download#2026-05-01a`, `${PUBLIC_URL}/download#2026-03-01a`]);
    expect(entries.map((entry) => entry.updated)).toEqual(released.map((release) => release.releasedAt));
    expect(feed.updated).toBe(released[0]?.releasedAt);
    expect(response.body).not.toContain('2026-04-01a');

    const [hostile, first] = entries;
    expect(hostile?.contentType).toBe('html');
    // The entry's HTML (the parsed content): the notes' markup is text, the unsafe link only its label.
    expect(hostile?.content).toContain('<h3>Fixes &#60;script&#62;alert(1)&#60;/script&#62;</h3>');
    expect(hostile?.content).not.toContain('<script');
    expect(hostile?.content).not.toContain('javascript:');
    expect(hostile?.content).toContain('<a href="https://docs.test/a?b=1&#38;c=2" rel="nofollow noopener">docs</a>');
    expect(hostile?.content).toContain('&#34;quotes&#34; &#38; &#39;apostrophes&#39; ]]&#62; &#60;![CDATA[ x ]]&#62;  control');
    expect(hostile?.content).toContain('<a href="https://dl.test/2026-05-01a/ue5.4.zip">Download 2026-05-01a for Unreal Engine 5.4</a>');
    expect(hostile?.content).toContain('<a href="https://dl.test/2026-05-01a/ue5.7.zip">Download 2026-05-01a for Unreal Engine 5.7</a>');
    expect(hostile?.content).not.toContain('5.5');
    expect(first?.content).toBe(
      '<p>First <strong>build</strong>.</p>\n<ul>' +
        '<li><a href="https://dl.test/2026-03-01a/ue5.5.zip">Download 2026-03-01a for Unreal Engine 5.5</a></li>' +
        '<li><a href="https://dl.test/2026-03-01a/ue5.6.zip">Download 2026-03-01a for Unreal Engine 5.6</a></li></ul>',
    );
  });

  it('answers a reader that holds the current feed with a bodiless 304, and a changed feed with 200', async () => {
    const client = server().client();
    const first = await client.get('/releases.atom');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await client.get('/releases.atom', { headers: { 'if-none-match': `W/"other", ${etag}` } });
    expect([again.statusCode, again.body, again.headers.etag, again.headers['cache-control']]).toEqual([
      304,
      '',
      etag,
      'public, max-age=300',
    ]);

    const builds = createBuildService(server().db, createAuditService(server().db));
    await builds.withdraw('2026-05-01a', 'Pulled', null);
    const changed = await client.get('/releases.atom', { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(readFeed(changed.body).entries.map((entry) => entry.title)).toEqual(['Sage 2026-03-01a']);
  });

  it('pre-renders the download page with the builds offered, announces the feed, and renders it anew after a release or a withdrawal', async () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sage-static-'));
    fs.writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head><title>Sage</title></head><body><div id="root"></div></body></html>',
    );
    const rendered: BootData[] = [];
    const renderPage: RenderPage = async (_url, boot) => {
      rendered.push(boot);
      return { html: `<main>${(boot.releases ?? []).map((release) => release.version).join(' ')}</main>`, styles: '' };
    };
    const app = await buildExtraApp(server().db, {}, { staticDir, renderPage });
    try {
      const builds = createBuildService(server().db, createAuditService(server().db));
      const get = () => app.inject({ method: 'GET', url: '/download' });

      const page = await get();
      expect(page.body).toContain('<link rel="alternate" type="application/atom+xml" title="Sage releases" href="/releases.atom" />');
      expect(page.body).toContain('<main>2026-03-01a</main>');
      expect(rendered.at(-1)?.currentBuild?.version).toBe('2026-03-01a');
      expect(rendered.at(-1)?.releases).toEqual(await builds.releases());
      // Kept: the same builds render once.
      await get();
      expect(rendered).toHaveLength(1);

      await builds.release(build('2026-06-01a', 'New', { '57': true }), null);
      expect((await get()).body).toContain('<main>2026-06-01a 2026-03-01a</main>');
      await builds.withdraw('2026-03-01a', 'Old', null);
      expect((await get()).body).toContain('<main>2026-06-01a</main>');
      expect(rendered).toHaveLength(3);

      // Only the download page announces the feed.
      expect((await app.inject({ method: 'GET', url: '/login' })).body).not.toContain('application/atom+xml');
    } finally {
      await app.close();
      fs.rmSync(staticDir, { recursive: true, force: true });
    }
  });
});
