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

/**
 * Text past the right edge of the page that no sideways scrolling box holds: a card that hides
 * its overflow cuts it off, so the page is no wider but the words are lost (text the page itself
 * scrolls to is the width check's). Text cut short on purpose (an ellipsis) and hidden text are left out.
 */
const CUT_OFF_SCRIPT = `(() => {
  const width = Math.max(window.innerWidth, document.documentElement.scrollWidth);
  const inScroller = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.textOverflow === 'ellipsis') return true;
    }
    return false;
  };
  const hasText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
  return [...document.querySelectorAll('body *')]
    .filter((el) => hasText(el) && getComputedStyle(el).visibility !== 'hidden' && el.getBoundingClientRect().right > width + 0.5)
    .filter((el) => !inScroller(el))
    .slice(0, 5)
    .map((el) => el.tagName.toLowerCase() + ' "' + (el.textContent || '').slice(0, 40) + '"');
})()`;

/** Fails when text runs past the right edge of the page outside a box that scrolls sideways. */
export async function expectNothingCutOff(page: Page, where: string): Promise<void> {
  const cut = await page.evaluate<string[]>(CUT_OFF_SCRIPT);
  expect(cut, `text cut off at the right edge of ${where}`).toEqual([]);
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
