import { describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material/styles';
import { guessFits, matchesScreen, PHONE_LAYOUT_QUERY, screenGuessOf, type ScreenGuess } from '../../contract/screenGuess';

const PIXEL_7 = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/604.1';
const ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('screenGuessOf', () => {
  it.each<[string, string | undefined, string | undefined, ScreenGuess]>([
    ['an Android phone', PIXEL_7, undefined, 'phone'],
    ['an iPhone', IPHONE, undefined, 'phone'],
    ['an iPad', IPAD, undefined, 'desktop'],
    ['an Android tablet', ANDROID_TABLET, undefined, 'desktop'],
    ['a desktop browser', MAC, undefined, 'desktop'],
    ['no user agent', undefined, undefined, 'desktop'],
    ['the client hint for a phone', MAC, '?1', 'phone'],
    ['the client hint for anything else, over the user agent', PIXEL_7, '?0', 'desktop'],
  ])('%s', (_case, userAgent, hint, expected) => {
    expect(screenGuessOf(userAgent, hint)).toBe(expected);
  });
});

describe('matchesScreen', () => {
  it.each<[string, ScreenGuess, boolean]>([
    // MUI's breakpoints: down('sm'), up('md'), between('sm', 'md'), down('md').
    ['@media (max-width:599.95px)', 'phone', true],
    ['@media (max-width:599.95px)', 'desktop', false],
    ['(min-width:900px)', 'phone', false],
    ['(min-width:900px)', 'desktop', true],
    ['@media (min-width:600px) and (max-width:899.95px)', 'phone', false],
    ['@media (min-width:600px) and (max-width:899.95px)', 'desktop', false],
    ['(max-width:899.95px)', 'phone', true],
    ['@media screen and (min-width: 1200px)', 'desktop', true],
    // What a server cannot know does not hold.
    ['(prefers-reduced-motion: reduce)', 'desktop', false],
    ['(orientation: portrait) and (max-width:599.95px)', 'phone', false],
    ['', 'desktop', false],
  ])('%s on a %s', (query, screen, expected) => {
    expect(matchesScreen(query, screen)).toBe(expected);
  });
});

describe('guessFits', () => {
  /** A browser whose window is `width` CSS pixels wide, answering width conditions as matchesScreen reads them. */
  const windowOf = (width: number) => (query: string) => width <= Number(/max-width:\s*([\d.]+)px/.exec(query)?.[1] ?? NaN);

  it.each<[string, ScreenGuess | undefined, number, boolean]>([
    ['a phone guessed for a phone', 'phone', 390, true],
    ['a laptop guessed for a laptop', 'desktop', 1350, true],
    ['a tablet guessed for a desktop, its width past the phone layout', 'desktop', 820, true],
    ['a narrow window on a laptop', 'desktop', 375, false],
    ['a phone held sideways, guessed for a phone', 'phone', 740, false],
    ['no guess', undefined, 375, true],
  ])('%s', (_case, screen, width, fits) => {
    expect(guessFits(screen, windowOf(width))).toBe(fits);
  });

  it('reads the console’s breakpoint as MUI writes it', () => {
    expect(`@media ${PHONE_LAYOUT_QUERY}`).toBe(createTheme().breakpoints.down('sm'));
  });
});
