/**
 * The docs tell the truth at a glance: every decision record says whether it still holds, every
 * relative link in README.md and docs/ leads to a file and, with `#…`, to a heading in it, and
 * docs/performance.md opens with today's figures, its history kept apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const decisions = path.join(root, 'docs/decisions');
const records = fs
  .readdirSync(decisions)
  .filter((file) => file.endsWith('.md'))
  .sort();

/** Markdown text outside fenced code blocks and inline code, where links and headings are real. */
const prose = (markdown: string) => markdown.replace(/^```[^]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string) {
  const seen = new Map<string, number>();
  return new Set(
    [...prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map(([, heading]) => {
      const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_]/g, '');
      const slug = text
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .replace(/\s/g, '-');
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      return count === 0 ? slug : `${slug}-${count}`;
    }),
  );
}

/** `Status: Accepted`, or `Amended by` / `Superseded by` links to later records, near the top. */
function statusOf(file: string) {
  const lines = fs.readFileSync(path.join(decisions, file), 'utf8').split('\n').slice(0, 6);
  const line = lines.find((l) => l.startsWith('Status:'));
  const form = line?.match(/^Status: (?:Accepted(?: \(issue \d+\))?|(Amended|Superseded) by (.+))$/);
  if (!form) return { line, valid: false, by: [] };
  const by = form[2]?.split(', ').map((entry) => entry.match(/^\[(\d{3})\]\(((\d{3})-[a-z0-9-]+\.md)\)$/)) ?? [];
  return {
    line,
    valid: by.every((link) => link && link[1] === link[3] && fs.existsSync(path.join(decisions, link[2]!))),
    by: by.map((link) => link?.[1] ?? ''),
  };
}

describe('decision records', () => {
  it('are numbered from 001 without a gap', () => {
    expect(records.map((file) => file.slice(0, 4))).toEqual(records.map((_, i) => `${String(i + 1).padStart(3, '0')}-`));
  });

  it.each(records)('%s has a Status line: Accepted, or amended or superseded by later records', (file) => {
    const status = statusOf(file);
    expect(status.line, 'a "Status: …" line within its first lines').toBeDefined();
    expect(status, `"${status.line}": links written [NNN](NNN-title.md), to records that exist`).toMatchObject({
      valid: true,
    });
    expect(status.by.filter((number) => number <= file.slice(0, 3))).toEqual([]);
  });

  it('knows a record is not current once superseded', () => {
    expect(statusOf('032-phone-console-home-starts-on-first-touch.md').line).toMatch(/^Status: Superseded by \[033\]/);
  });
});

describe('relative links in README.md and docs/', () => {
  const markdownFiles = [
    'README.md',
    ...fs
      .readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md'))
      .map((file) => path.join('docs', file)),
  ];
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(fs.readFileSync(file, 'utf8')));
    return anchors.get(file)!;
  };

  it.each(markdownFiles)('%s: every relative link and #anchor resolves', (file) => {
    const from = path.join(root, file);
    const links = [...prose(fs.readFileSync(from, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(([, target]) => target!);
    const broken = links
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .filter((target) => {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const to = file ? path.resolve(path.dirname(from), decodeURI(file)) : from;
        if (!fs.existsSync(to)) return true;
        return anchor !== undefined && to.endsWith('.md') && !anchorsIn(to).has(decodeURIComponent(anchor));
      });
    expect(broken).toEqual([]);
  });
});

describe('docs/performance.md', () => {
  const text = fs.readFileSync(path.join(root, 'docs/performance.md'), 'utf8');

  it('starts with the current figures and the budgets, and stays short', () => {
    expect(text.match(/^## .+$/gm)!.slice(0, 2)).toEqual(['## Current figures', '## Budgets CI enforces']);
    expect(text.split('\n').length).toBeLessThan(250);
  });

  it("leaves each issue's measurements to docs/performance-history.md", () => {
    expect(text).toContain('](performance-history.md)');
    expect(text).not.toMatch(/^### /m);
  });
});
