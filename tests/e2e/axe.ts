import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
/** axe-core's browser build, read once and injected into each page checked. */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Waits for the page's finite animations and transitions to end (a spinner's endless one never does). */
const SETTLED_SCRIPT = `Promise.all(
  document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined)),
)`;

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and best practices) over the page as it is now and
 * fails with each violation, its rule and the elements it found, when there is any.
 */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE); // evaluated, not a <script>: the product's CSP allows no inline script
  // A dialog still fading in has colours axe reads as too faint: the page is checked as it settles.
  await page.evaluate(SETTLED_SCRIPT);
  const violations = await page.evaluate(async () => {
    // In the page, whose window is globalThis (this project's e2e code is typed without the DOM).
    const inPage = globalThis as unknown as {
      document: unknown;
      axe: { run: (context: unknown, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await inPage.axe.run(inPage.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const described = violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(described, `axe-core on ${where}`).toEqual([]);
}
