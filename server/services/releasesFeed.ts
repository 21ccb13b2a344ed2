import type { PublicRelease } from '../../contract/builds';
import { escapeHtml } from './mailer';
import { releaseNotesHtml } from './releaseNotesHtml';

/** The feed's <updated> while nothing is released: a fixed instant, so the empty feed's ETag holds. */
const EMPTY_FEED_UPDATED = new Date(0).toISOString();

/** Characters XML 1.0 cannot carry even escaped (controls, lone surrogates, U+FFFE/F): dropped. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- the control characters are what it matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML character data or an attribute value: every markup character escaped. */
const xmlText = (text: string): string => escapeHtml(text.replace(NOT_XML, ''));

/** An entry's HTML: the notes (rendered escaped, contract/releaseNotes.ts), then a download per engine. */
function entryHtml(release: PublicRelease): string {
  const downloads = release.downloads
    .map(
      ({ engineVersion, url }) =>
        `<li><a href="${escapeHtml(url)}">Download ${escapeHtml(release.version)} for Unreal Engine ${engineVersion}</a></li>`,
    )
    .join('');
  return `${releaseNotesHtml(release.notes)}\n<ul>${downloads}</ul>`;
}

/**
 * The Atom 1.0 feed (RFC 4287) of the builds offered, newest first (issue 41): each entry's id is
 * the download page's address with the version, which never changes once released. `publicUrl`:
 * the address people open, without a trailing slash.
 */
export function releasesFeed(releases: readonly PublicRelease[], publicUrl: string): string {
  const page = `${publicUrl}/download`;
  const self = `${publicUrl}/releases.atom`;
  const entries = releases.map(
    (release) => `  <entry>
    <id>${xmlText(`${page}#${encodeURIComponent(release.version)}`)}</id>
    <title>${xmlText(`Sage ${release.version}`)}</title>
    <updated>${xmlText(release.releasedAt)}</updated>
    <published>${xmlText(release.releasedAt)}</published>
    <link rel="alternate" type="text/html" href="${xmlText(page)}"/>
    <content type="html">${xmlText(entryHtml(release))}</content>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${xmlText(self)}</id>
  <title>Sage releases</title>
  <subtitle>Builds of Sage, the AI assistant plugin for Unreal Engine</subtitle>
  <updated>${xmlText(releases[0]?.releasedAt ?? EMPTY_FEED_UPDATED)}</updated>
  <author><name>Sage</name></author>
  <link rel="self" type="application/atom+xml" href="${xmlText(self)}"/>
  <link rel="alternate" type="text/html" href="${xmlText(page)}"/>
${entries.join('')}</feed>
`;
}
