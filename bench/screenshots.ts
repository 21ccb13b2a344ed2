// Shared by `npm run bench:web` with a baseline: the pages at a desktop and a phone width in both
// builds, compared pixel by pixel (issue 11: "no visual regressions"). The comparison runs in the
// browser (canvas), so it needs no image library.
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/localProduct';

export interface ScreenshotTarget {
  label: string;
  url: string;
  /** The signed-in user's session cookie (`sage_session=…`; `__Host-sage_session=…` on https). */
  cookie: string;
}

export interface ScreenshotComparison {
  path: string;
  width: number;
  /** Share of pixels whose colour differs by more than a rendering wobble; null when the sizes differ. */
  differingShare: number | null;
  sizes: string;
}

export const SCREENSHOT_WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** A page as its visitor first sees it, full length, as a PNG in base64. */
async function screenshot(
  browser: Browser,
  target: ScreenshotTarget,
  path: string,
  signedIn: boolean,
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport });
  try {
    if (signedIn) {
      const [name, value] = target.cookie.split(';')[0]!.split('=') as [string, string];
      await context.addCookies([{ name, value, url: target.url }]);
    }
    const page = await context.newPage();
    await page.goto(`${target.url}${path}`, { waitUntil: 'networkidle', timeout: 60_000 });
    // Transitions (skeletons, focus rings) settle.
    await page.waitForTimeout(500);
    return (await page.screenshot({ fullPage: true, type: 'png' })).toString('base64');
  } finally {
    await context.close();
  }
}

/**
 * Compares two PNGs (base64) in a page's canvas: the share of pixels that differ, or the two sizes.
 * Source text rather than a function: tsx would wrap a function's inner names in a helper that the
 * page does not have.
 */
const COMPARE_IN_PAGE = `async ([a, b]) => {
  const load = (data) => new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('not an image'));
    image.src = 'data:image/png;base64,' + data;
  });
  const [x, y] = await Promise.all([load(a), load(b)]);
  const sizes = x.width + '×' + x.height + ' / ' + y.width + '×' + y.height;
  if (x.width !== y.width || x.height !== y.height) return { differingShare: null, sizes };
  const pixels = (image) => {
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data;
  };
  const p = pixels(x);
  const q = pixels(y);
  let differing = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 48) differing += 1;
  }
  return { differingShare: differing / (x.width * x.height), sizes };
}`;

async function compare(browser: Browser, before: string, after: string) {
  const page = await browser.newPage();
  try {
    return (await page.evaluate(`(${COMPARE_IN_PAGE})(${JSON.stringify([before, after])})`)) as Pick<
      ScreenshotComparison,
      'differingShare' | 'sizes'
    >;
  } finally {
    await page.close();
  }
}

/** Every page at every width, baseline against current. */
export async function compareScreenshots(
  baseline: ScreenshotTarget,
  current: ScreenshotTarget,
  pages: { path: string; signedIn: boolean }[],
): Promise<ScreenshotComparison[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_FLAGS] });
  try {
    const rows: ScreenshotComparison[] = [];
    for (const page of pages) {
      for (const viewport of SCREENSHOT_WIDTHS) {
        const before = await screenshot(browser, baseline, page.path, page.signedIn, viewport);
        const after = await screenshot(browser, current, page.path, page.signedIn, viewport);
        rows.push({ path: page.path, width: viewport.width, ...(await compare(browser, before, after)) });
      }
    }
    return rows;
  } finally {
    await browser.close();
  }
}
