import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BOOT_ATTRIBUTE, type BootData } from '../../contract/boot';
import type { SageBuild } from '../../contract/builds';
import type { RuntimeConfig } from '../../contract/config';
import { documentTitle, pageFor, redirectFor, type PageInfo } from '../../contract/pages';
import { SESSION_COOKIE } from '../routes/sessionCookie';
import { escapeHtml } from '../services/mailer';
import { compressBody, sendCompressed, type CompressedBody } from './compression';

/** The server build of the browser's screens (src/entry-server.tsx, built into dist/ssr/). */
export type RenderPage = (url: string, boot: BootData) => Promise<{ html: string; styles: string }>;

export interface PagesOptions {
  /** The built browser app: its index.html is every page's template. */
  clientDir: string;
  /** Renders the pre-rendered pages; without it every page is the app's shell. */
  renderPage?: RenderPage;
  runtimeConfig: RuntimeConfig;
  /** The released build, null before the first release. */
  currentBuild(): Promise<SageBuild | null>;
}

/** Distinct pages kept rendered: pages × their render parameters × builds seen since the start. */
const MAX_CACHED_PAGES = 64;

/** index.html split around what each page fills in: its <head> additions and its #root. */
function loadTemplate(clientDir: string) {
  const html = fs
    .readFileSync(path.join(clientDir, 'index.html'), 'utf8')
    // Each page writes its own title and description.
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  const root = /<div id="root"><\/div>/.exec(html);
  const headEnd = html.indexOf('</head>');
  if (!root || headEnd < 0 || headEnd > root.index) throw new Error(`${clientDir}/index.html has no </head> before <div id="root"></div>`);
  return {
    head: html.slice(0, headEnd),
    body: html.slice(headEnd, root.index),
    tail: html.slice(root.index + root[0].length),
  };
}

/** A pre-rendered page's query parameters that change its first render (contract/pages.ts). */
function renderParams(page: PageInfo, query: URLSearchParams): [string, string][] {
  return Object.entries(page.renderParams ?? {}).flatMap(([name, values]): [string, string][] => {
    const value = query.get(name);
    return value !== null && values.includes(value) ? [[name, value]] : [];
  });
}

/**
 * Serves every screen of the single-page app from memory: `/download`, `/login` and `/support`
 * rendered on the server with their content and styles (so they show before the JavaScript runs),
 * every other screen as the app's shell; each with its own title, the boot data the browser starts
 * from, and compressed once per distinct page rather than per request.
 */
export async function registerPages(app: FastifyInstance, options: PagesOptions) {
  const template = loadTemplate(options.clientDir);
  const cache = new Map<string, CompressedBody>();

  function documentFor(page: PageInfo, boot: BootData, rendered: { html: string; styles: string } | null): string {
    const head = [
      `<title>${escapeHtml(documentTitle(page))}</title>`,
      page.description ? `<meta name="description" content="${escapeHtml(page.description)}" />` : '',
      rendered?.styles ?? '',
    ].join('');
    const root = `<div id="root" ${BOOT_ATTRIBUTE}="${escapeHtml(JSON.stringify(boot))}">${rendered?.html ?? ''}</div>`;
    return `${template.head}${head}${template.body}${root}${template.tail}`;
  }

  async function pageBody(request: FastifyRequest, page: PageInfo): Promise<CompressedBody> {
    const url = new URL(request.url, 'http://localhost');
    const prerender = page.prerender === true && options.renderPage !== undefined;
    const boot: BootData = {
      config: options.runtimeConfig,
      // Without a session cookie the visitor is signed out: the page says so, and the browser
      // need not ask (GET /api/user would only answer 401).
      ...(request.cookies[SESSION_COOKIE] ? {} : { signedOut: true }),
    };
    const params = prerender ? renderParams(page, url.searchParams) : [];
    if (prerender && page.path === 'download') boot.currentBuild = (await options.currentBuild()) ?? options.runtimeConfig.defaultBuild;
    const key = JSON.stringify([page.path, prerender, boot.signedOut ?? false, params, boot.currentBuild ?? null]);
    const cached = cache.get(key);
    if (cached) return cached;

    const renderUrl = `${url.pathname}${params.length ? `?${new URLSearchParams(params)}` : ''}`;
    const rendered = prerender && options.renderPage ? await options.renderPage(renderUrl, boot) : null;
    const body = compressBody(documentFor(page, boot, rendered));
    if (cache.size >= MAX_CACHED_PAGES) cache.delete(cache.keys().next().value as string);
    cache.set(key, body);
    return body;
  }

  return async function servePage(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, 'http://localhost');
    const target = redirectFor(url.pathname);
    // §2: '/' and '/signup' only redirect; the server does it, saving the browser a round trip.
    if (target) return reply.redirect(`${target}${url.search}`, 302);
    const page = pageFor(url.pathname);
    const body = await pageBody(request, page);
    reply
      .code(page.path === '*' ? 404 : 200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache');
    return sendCompressed(request, reply, body);
  };
}
