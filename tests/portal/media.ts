import { vi } from 'vitest';
import { MOBILE_MEDIA_QUERY } from '../../src/ui/theme';

/** What `window.matchMedia` returns, answering `matches` for the query. */
export function fakeMediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  };
}

/** Makes MUI's media queries see a phone-sized screen (768 px or less). */
export function emulatePhoneScreen() {
  return vi.spyOn(window, 'matchMedia').mockImplementation((query) => fakeMediaQueryList(query, query === MOBILE_MEDIA_QUERY));
}
