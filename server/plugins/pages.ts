import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BOOT_ATTRIBUTE, type BootData, type ConsoleHome } from '../../contract/boot';
import type { PublicRelease, SageBuild } from '../../contract/builds';
import type { RuntimeConfig } from '../../contract/config';
import { documentTitle, pageFor, pageTitle, prerendersAt, redirectFor, redirectLocation, type PageInfo } from '../../contract/pages';
import { routeAccess, sessionOf } from '../../contract/routeAccess';
import type { CurrentUser } from '../../contract/user';
import { sessionToken } from '../http/sessionCookie';
import { escapeHtml } from '../services/mailer';
import { compressBody, sendCompressed, sendCompressedOnce, type CompressedBody } from './compression';

/**
 * The server build of the browser's screens (src/entry-server.tsx, built into dist/ssr/): a page's
 * markup and styles, and its title when the screen names itself more finely than its page (a console tab).
 */
export type RenderPage = (url: string, boot: BootData) => Promise<{ html: string; styles: string; title?: string }>;

export interface PagesOptions {
  /** The built browser app: its index.html is every page's template. */
  clientDir: string;
  /** Renders the pre-rendered pages; without it every page is the app's shell. */
  renderPage?: RenderPage;
  runtimeConfig: RuntimeConfig;
  /** The download page's builds: the current one (null before the first release) and every one not withdrawn, newest first. */
  offeredBuilds(): Promise<{ current: SageBuild | null; releases: PublicRelease[] }>;
  /** The console Home's figures, read for an admin opening /admin. */
  consoleHome(): Promise<ConsoleHome>;
  /** The request's signed-in user, or null (no session cookie, or an ended session). */
  currentUser(request: FastifyRequest): Promise<CurrentUser | null>;
  /** Drops the cookie of an ended session, so the browser stops sending it. */
  clearSessionCookie(reply: FastifyReply): void;
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

const CONSOLE_PAGE = 'admin/*';

/** A pre-rendered page's query parameters that change its first render (contract/pages.ts). */
function renderParams(page: PageInfo, query: URLSearchParams): [string, string][] {
  return Object.entries(page.renderParams ?? {}).flatMap(([name, values]): [string, string][] => {
    const value = query.get(name);
    return value !== null && values.includes(value) ? [[name, value]] : [];
  });
}

/**
 * Serves every screen of the single-page app: the pre-rendered ones (contract/pages.ts) rendered
 * on the server with their content and styles, so they show before the JavaScript runs, every
 * other screen as the app's shell; each with its own title and the boot data the browser starts
 * from. Whoever a page's access rule turns away is redirected as the browser's guard would.
 * Signed-out pages are kept in memory, compressed, once per distinct page rather than per request.
 */
export async function registerPages(app: FastifyInstance, options: PagesOptions) {
  const template = loadTemplate(options.clientDir);
  const cache = new Map<string, CompressedBody>();

  function documentFor(page: PageInfo, query: URLSearchParams, boot: BootData, rendered: Awaited<ReturnType<RenderPage>> | null): string {
    const head = [
      `<title>${escapeHtml(rendered?.title ?? documentTitle(page, query))}</title>`,
      page.description ? `<meta name="description" content="${escapeHtml(page.description)}" />` : '',
      page.feed
        ? `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(page.feed.title)}" href="${escapeHtml(page.feed.href)}" />`
        : '',
      rendered?.styles ?? '',
    ].join('');
    const root = `<div id="root" ${BOOT_ATTRIBUTE}="${escapeHtml(JSON.stringify(boot))}">${rendered?.html ?? ''}</div>`;
    return `${template.head}${head}${template.body}${root}${template.tail}`;
  }

  /** Renders a page, or null when the renderer fails: the page is then the app's shell, which renders in the browser. */
  async function render(request: FastifyRequest, page: PageInfo, url: string, boot: BootData) {
    if (!prerendersAt(page, new URL(url, 'http://localhost').pathname) || !options.renderPage) return null;
    try {
      return await options.renderPage(url, boot);
    } catch (err) {
      request.log.error({ err, page: page.path }, 'rendering the page on the server failed; serving the app shell');
      return null;
    }
  }

  /** The request's path and query; `//x` is a path here, not the host of a protocol-relative URL. */
  const requestUrl = (url: string) => new URL(url.startsWith('//') ? `http://localhost${url}` : url, 'http://localhost');

  /** The page: a signed-out one kept compressed at the highest settings, a signed-in one as HTML to compress once per request. */
  async function pageBody(request: FastifyRequest, page: PageInfo, currentUser: CurrentUser | null): Promise<CompressedBody | string> {
    const url = requestUrl(request.url);
    const prerender = prerendersAt(page, url.pathname) && options.renderPage !== undefined;
    // The page says who it is for, so the browser need not ask GET /api/user.
    const boot: BootData = { config: options.runtimeConfig, ...(currentUser ? { currentUser } : { signedOut: true }) };
    const params = prerender ? renderParams(page, url.searchParams) : [];
    if (prerender && page.path === 'download') {
      const { current, releases } = await options.offeredBuilds();
      boot.currentBuild = current ?? options.runtimeConfig.defaultBuild;
      boot.releases = releases;
    }
    // The console's Home: its figures, only for whom the API would answer them (an account that
    // must first replace its one-time password is refused everything else, issue 27).
    if (prerender && page.path === CONSOLE_PAGE && currentUser && !currentUser.passwordChangeRequired) {
      boot.consoleHome = await options.consoleHome();
    }
    const renderUrl = `${url.pathname}${params.length ? `?${new URLSearchParams(params)}` : ''}`;
    // A signed-in user's page holds their data: rendered for each request, never kept, and
    // compressed per response (at the dynamic settings), not at the settings of a kept page.
    if (currentUser) return documentFor(page, url.searchParams, boot, await render(request, page, renderUrl, boot));

    // The title is part of the key: a page can be titled by its query (contract/pages.ts titleParams) without being pre-rendered.
    // The builds are in it as a digest (notes may be long): a release or a withdrawal renders the page anew.
    const builds = boot.currentBuild
      ? createHash('sha256')
          .update(JSON.stringify([boot.currentBuild, boot.releases]))
          .digest('base64url')
      : null;
    const key = JSON.stringify([page.path, pageTitle(page, url.searchParams), prerender, params, builds]);
    const cached = cache.get(key);
    if (cached) return cached;
    const body = compressBody(documentFor(page, url.searchParams, boot, await render(request, page, renderUrl, boot)));
    if (cache.size >= MAX_CACHED_PAGES) cache.delete(cache.keys().next().value as string);
    cache.set(key, body);
    return body;
  }

  return async function servePage(request: FastifyRequest, reply: FastifyReply) {
    const url = requestUrl(request.url);
    const target = redirectLocation(url.pathname, url.search);
    // Paths that only redirect ('/', '/signup', '/register'…): the server does it, saving the browser a round trip.
    if (target) return reply.redirect(target, 302);
    const page = pageFor(url.pathname);
    const hasCookie = sessionToken(request) !== undefined;
    const currentUser = hasCookie ? await options.currentUser(request) : null;
    if (hasCookie && !currentUser) options.clearSessionCookie(reply);
    // The route guard's rule, applied before anything is sent: no page of the wrong kind flashes.
    const access = routeAccess(page.access, sessionOf(currentUser));
    if (access.kind === 'redirect') return reply.redirect(redirectFor(access.to) ?? access.to, 302);
    const body = await pageBody(request, page, currentUser);
    reply
      .code(page.path === '*' ? 404 : 200)
      .type('text/html; charset=utf-8')
      // A page with a user's data is theirs alone: no cache, not even the browser's, keeps it.
      .header('cache-control', currentUser ? 'no-store' : 'no-cache');
    return typeof body === 'string' ? sendCompressedOnce(request, reply, body) : sendCompressed(request, reply, body);
  };
}
