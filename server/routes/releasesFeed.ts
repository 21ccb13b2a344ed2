import { etagOf, ifNoneMatch } from '../http/etag';
import { access } from '../http/endpointAccess';
import type { App, RouteContext } from '../http/types';
import { releasesFeed } from '../services/releasesFeed';

/** `GET /releases.atom` (issue 41): the builds offered as an Atom feed, linked from the download page's <head>. */
export async function releasesFeedRoutes(app: App, { config, services }: RouteContext) {
  app.get('/releases.atom', { config: access.public('feed readers follow the releases of the plugin') }, async (request, reply) => {
    const body = releasesFeed(await services.builds.releases(), config.publicUrl);
    const etag = etagOf(body);
    // Five minutes in a reader's or a CDN's cache, as the update check: a withdrawal leaves the feed within that.
    reply.header('cache-control', 'public, max-age=300').header('etag', etag);
    if (ifNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/atom+xml; charset=utf-8').send(body);
  });
}
