import { type NotesBlock, type NotesInline, parseReleaseNotes } from '../../contract/releaseNotes';
import { escapeHtml } from './mailer';

/**
 * Release notes as HTML, for the Atom feed and the release e-mail (issue 41). Every character of
 * the notes goes through `escapeHtml`; the only tags are the ones written here, and the only links
 * the http(s) ones the parser kept (contract/releaseNotes.ts).
 */
export function releaseNotesHtml(markdown: string): string {
  return parseReleaseNotes(markdown).map(blockHtml).join('\n');
}

function blockHtml(block: NotesBlock): string {
  switch (block.type) {
    case 'heading':
      return `<h3>${inlineHtml(block.children)}</h3>`;
    case 'paragraph':
      return `<p>${inlineHtml(block.children)}</p>`;
    case 'code':
      return `<pre><code>${escapeHtml(block.text)}</code></pre>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${tag}>`;
    }
  }
}

function inlineHtml(runs: readonly NotesInline[]): string {
  return runs
    .map((run) => {
      switch (run.type) {
        case 'text':
          return escapeHtml(run.text);
        case 'code':
          return `<code>${escapeHtml(run.text)}</code>`;
        case 'strong':
          return `<strong>${inlineHtml(run.children)}</strong>`;
        case 'em':
          return `<em>${inlineHtml(run.children)}</em>`;
        case 'link':
          return `<a href="${escapeHtml(run.href)}" rel="nofollow noopener">${inlineHtml(run.children)}</a>`;
      }
    })
    .join('');
}
