import { lazyScreen, type LazyScreen } from '../ui/lazyScreen';
import type { PagePath } from '../../contract/pages';
import { SCREEN_CHUNKS } from './screenChunks';

/** Each screen as a lazy component of its own chunk (src/portal/screenChunks.ts). */
export const SCREENS = Object.fromEntries(Object.entries(SCREEN_CHUNKS).map(([path, load]) => [path, lazyScreen(load)])) as Record<
  PagePath | '*',
  LazyScreen
>;

/** The screen a browser path shows. */
export function screenFor(path: string): LazyScreen {
  return SCREENS[path as PagePath | '*'] ?? SCREENS['*'];
}
