import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page's width and the elements that reach past the right edge of the screen, for the failure message. */
const OVERFLOW_SCRIPT = `(() => {
  const width = window.innerWidth;
  const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 0.5);
  // The innermost ones: their parents are only wide because of them.
  const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: width,
    culprits: innermost.slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' "' + (el.textContent || '').slice(0, 40) + '"'),
  };
})()`;

/** Fails when the page is wider than the screen (it would scroll sideways), naming what sticks out. */
export async function expectNoHorizontalOverflow(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate<{ scrollWidth: number; innerWidth: number; culprits: string[] }>(
    OVERFLOW_SCRIPT,
  );
  expect(scrollWidth, `${where} is ${scrollWidth} px wide on a ${innerWidth} px screen: ${culprits.join('; ')}`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** Runs a check and keeps its failure, so one sweep reports every page's problems at once. */
export async function collect(problems: string[], check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (err) {
    // An assertion's message names the page; what it found is in its `actual`.
    const actual = (err as { actual?: unknown }).actual;
    problems.push(`${err instanceof Error ? err.message : String(err)}${Array.isArray(actual) ? `\n    ${actual.join('\n    ')}` : ''}`);
  }
}
