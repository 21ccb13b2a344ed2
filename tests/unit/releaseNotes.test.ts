import { describe, expect, it } from 'vitest';
import { notesText, parseInline, parseReleaseNotes, safeLinkHref } from '../../contract/releaseNotes';
import { releaseNotesHtml } from '../../server/services/releaseNotesHtml';

describe('release notes: what Markdown becomes', () => {
  it('reads headings, paragraphs, both kinds of list and fenced code', () => {
    const notes = [
      '## Fixes',
      'Chat no longer',
      'freezes.',
      '',
      '- **Faster** start',
      '- `Ctrl+K` opens',
      '',
      '1. one',
      '2) two',
      '',
      '```',
      '<b>x</b>',
      '```',
    ].join('\n');
    expect(parseReleaseNotes(notes)).toEqual([
      { type: 'heading', children: [{ type: 'text', text: 'Fixes' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'Chat no longer freezes.' }] },
      {
        type: 'list',
        ordered: false,
        items: [
          [
            { type: 'strong', children: [{ type: 'text', text: 'Faster' }] },
            { type: 'text', text: ' start' },
          ],
          [
            { type: 'code', text: 'Ctrl+K' },
            { type: 'text', text: ' opens' },
          ],
        ],
      },
      { type: 'list', ordered: true, items: [[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]] },
      { type: 'code', text: '<b>x</b>' },
    ]);
  });

  // address: kept as a link?
  const LINKS: [string, string | null][] = [
    ['https://sage.example/docs', 'https://sage.example/docs'],
    ['http://sage.example/', 'http://sage.example/'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:msgbox', null],
    ['/relative/path', null],
    ['//evil.example/x', null],
    ['mailto:a@b.example', null],
    ['file:///etc/passwd', null],
  ];
  it.each(LINKS)('a link to %j keeps the address %j', (address, kept) => {
    expect(safeLinkHref(address)).toBe(kept);
    const runs = parseInline(`[label](${address})`);
    if (kept) expect(runs).toEqual([{ type: 'link', href: kept, children: [{ type: 'text', text: 'label' }] }]);
    else expect(runs.every((run) => run.type !== 'link')).toBe(true);
  });

  it('keeps *em*, _em_, escapes and unmatched markers as written', () => {
    expect(parseInline('*a* _b_ \\*c\\* 2 * 3')).toEqual([
      { type: 'em', children: [{ type: 'text', text: 'a' }] },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'b' }] },
      { type: 'text', text: ' *c* 2 * 3' },
    ]);
  });
});

describe('hostile notes', () => {
  const HOSTILE = [
    '<script>alert(document.cookie)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">click</a>',
    '[click](javascript:alert(1))',
    '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[x"onmouseover="alert(1)](https://ok.example/"onmouseover="alert(1))',
    '<iframe src="https://evil.example"></iframe>',
    '**<svg onload=alert(1)>**',
    '`</code><script>alert(1)</script>`',
    '```\n</pre><script>alert(1)</script>\n```',
    '<style>body{display:none}</style>',
    '# <h1 onclick=alert(1)>',
  ].join('\n\n');

  it('renders as HTML with no tag, attribute or address but its own', () => {
    const html = releaseNotesHtml(HOSTILE);
    // The only tags are the renderer's own, each without attributes but a kept link's href and rel.
    const tags = [...html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/gi)];
    for (const [, name, attributes] of tags) {
      expect(['p', 'h3', 'ul', 'ol', 'li', 'strong', 'em', 'code', 'pre', 'a']).toContain(name);
      if (name === 'a' && attributes) expect(attributes).toMatch(/^ href="https:\/\/[^"<>]*" rel="nofollow noopener"$/);
      else expect(attributes).toBe('');
    }
    expect(html).not.toMatch(/<(script|img|iframe|svg|style|h1)/i);
    // Hostile addresses survive only as escaped text, never inside a tag.
    expect(html).not.toMatch(/<[^>]*(javascript:|data:|\son[a-z]+=)/i);
    expect(html).toContain('&#60;script&#62;alert(document.cookie)&#60;/script&#62;');
  });

  it('keeps every hostile character as text in the tree (what React renders, escaped)', () => {
    const text = notesText(parseReleaseNotes(HOSTILE));
    expect(text).toContain('<script>alert(document.cookie)</script>');
    expect(text).toContain('<img src=x onerror=alert(1)>');
    const links: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const node = value as { type?: string; href?: string };
        if (node.type === 'link' && node.href) links.push(node.href);
        Object.values(value).forEach(walk);
      }
    };
    walk(parseReleaseNotes(HOSTILE));
    for (const href of links) expect(href).toMatch(/^https?:\/\//);
  });
});
