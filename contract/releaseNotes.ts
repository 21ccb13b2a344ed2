/**
 * Release notes (issue 41): staff write Markdown; everybody else gets a tree of a few kinds of
 * blocks and inline runs. Nothing in the notes is ever HTML: a tag is text, and a link is kept only
 * when its address is http(s) (otherwise its label stays, as text). The download page, the Atom
 * feed, the release e-mail and the console render this tree (escaping text as they go), so no
 * renderer needs to trust the notes. Table-tested in tests/unit/releaseNotes.test.ts.
 */

/** The longest notes a build may carry. */
export const RELEASE_NOTES_MAX_LENGTH = 10_000;

export type NotesInline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: NotesInline[] }
  | { type: 'em'; children: NotesInline[] }
  | { type: 'link'; href: string; children: NotesInline[] };

export type NotesBlock =
  | { type: 'heading'; children: NotesInline[] }
  | { type: 'paragraph'; children: NotesInline[] }
  | { type: 'list'; ordered: boolean; items: NotesInline[][] }
  | { type: 'code'; text: string };

/** A link's address when it is an absolute http(s) URL; null for anything else (javascript:, data:, relative…). */
export function safeLinkHref(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const LINK = /^\[([^\]\n]*)\]\(([^()\s]*)\)/;

/** The inline runs of one block's text: `code`, **strong**, *em* or _em_, [label](http…), \escapes. */
export function parseInline(source: string): NotesInline[] {
  const runs: NotesInline[] = [];
  let text = '';
  const flush = () => {
    if (text) runs.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const char = source.charAt(i);
    const next = source.charAt(i + 1);
    if (char === '\\' && /[\\`*_[\]()#+\-.!<>]/.test(next)) {
      text += next;
      i += 2;
      continue;
    }
    if (char === '`') {
      const end = source.indexOf('`', i + 1);
      if (end > i + 1) {
        flush();
        runs.push({ type: 'code', text: source.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (rest.startsWith('**') || rest.startsWith('__')) {
      const marker = rest.slice(0, 2);
      const end = source.indexOf(marker, i + 2);
      if (end > i + 2) {
        flush();
        runs.push({ type: 'strong', children: parseInline(source.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if ((char === '*' || char === '_') && next !== ' ') {
      const end = source.indexOf(char, i + 1);
      if (end > i + 1 && source[end - 1] !== ' ') {
        flush();
        runs.push({ type: 'em', children: parseInline(source.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (char === '[') {
      const link = LINK.exec(rest);
      if (link) {
        flush();
        const children = parseInline(link[1] ?? '');
        const href = safeLinkHref(link[2] ?? '');
        if (href) runs.push({ type: 'link', href, children });
        else runs.push(...children);
        i += link[0].length;
        continue;
      }
    }
    text += char;
    i++;
  }
  flush();
  return runs;
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const FENCE = /^\s{0,3}(```|~~~)/;

/** The blocks of `markdown`: headings, paragraphs, bulleted and numbered lists, fenced code. */
export function parseReleaseNotes(markdown: string): NotesBlock[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: NotesBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join(' ')) });
    paragraph = [];
  };
  const endList = () => {
    if (list) blocks.push({ type: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      endParagraph();
      endList();
      const code: string[] = [];
      i++;
      const marker = fence[1] ?? '```';
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker)) code.push(lines[i++] ?? '');
      blocks.push({ type: 'code', text: code.join('\n') });
      continue;
    }
    if (!line.trim()) {
      endParagraph();
      endList();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      endList();
      blocks.push({ type: 'heading', children: parseInline(heading[1] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      endParagraph();
      const ordered = numbered !== null;
      if (list && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push((item[1] ?? '').trim());
      continue;
    }
    // A line under a list item continues it; any other line continues the paragraph.
    const current: { ordered: boolean; items: string[] } | null = list;
    if (current) current.items[current.items.length - 1] += ` ${line.trim()}`;
    else paragraph.push(line.trim());
  }
  endParagraph();
  endList();
  return blocks;
}

/** The notes' plain text (for a summary, a feed's title line or a screen reader's label). */
export function notesText(blocks: readonly NotesBlock[]): string {
  const inline = (runs: readonly NotesInline[]): string =>
    runs.map((run) => (run.type === 'text' || run.type === 'code' ? run.text : inline(run.children))).join('');
  return blocks
    .map((block) => {
      if (block.type === 'code') return block.text;
      if (block.type === 'list') return block.items.map(inline).join('\n');
      return inline(block.children);
    })
    .join('\n\n');
}
