import { whenIdle } from './whenIdle';

/** What counts as reaching for the page: the app starts loading on the first of these. */
const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'];

export interface EarlyInput {
  /** Calls `start` once, on the first sign that the visitor is about to use a control. */
  onFirstIntent(start: () => void): void;
  /**
   * The app runs the page now: stops holding, and replays the click or submit held meanwhile once
   * the app has attached to the whole page.
   */
  release(): void;
  /** The app could not start: a link click held meanwhile is followed as the browser would have. */
  followHeldLink(): void;
}

/**
 * Whether a click on a link to `url` waits for the app instead of loading that page: true where
 * the server sends only the app's shell for it (the console's pages other than the Home), so the
 * app already on its way draws the page sooner than a new page load that starts it over.
 */
export type HoldsLink = (url: URL) => boolean;

/** A plain click on a same-tab link to a page of `holdsLink`: not a new tab, window or download. */
function heldLinkOf(event: MouseEvent, target: Element, holdsLink: HoldsLink): HTMLAnchorElement | null {
  const link = target.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement)) return null;
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return null;
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href);
  return url.origin === window.location.origin && holdsLink(url) ? link : null;
}

/**
 * Until the app runs a pre-rendered page, its controls are plain markup: links and downloads work,
 * but a button would do nothing and a form would post itself natively. This holds the last click
 * or submit on such a control inside `root` and replays it once the app has taken over, so no
 * click is lost and no form leaves the page unhandled. Text typed meanwhile stays in its field:
 * the app reads the fields themselves.
 */
export function holdEarlyInput(root: HTMLElement, holdsLink: HoldsLink = () => false): EarlyInput {
  // `soonest`: replayed as the app starts, when a part of the page may not be attached yet.
  let held: ((soonest: boolean) => void) | null = null;
  let heldLink: HTMLAnchorElement | null = null;
  let intentListener: (() => void) | null = null;

  function onClick(event: MouseEvent) {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !root.contains(target)) return;
    // Links navigate by themselves, a full page load of a page the server renders, unless held.
    const link = heldLinkOf(event, target, holdsLink);
    if (!link && target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    heldLink = link;
    // Dispatched rather than element.click(): the target may be an icon's SVG, which has no click().
    const replay = (soonest: boolean) => {
      // A link the app rendered anew (a mismatch in hydration) is found again by its address.
      const clicked = target.isConnected
        ? target
        : link
          ? root.querySelector(`a[href="${CSS.escape(link.getAttribute('href') ?? '')}"]`)
          : null;
      if (!clicked) {
        if (link) window.location.assign(link.href);
        return;
      }
      const click = new MouseEvent('click', { bubbles: true, cancelable: true, composed: true });
      // The app takes a link's click by cancelling the page load. One it did not take reached a
      // part of the page React has not attached yet: kept, and tried again once the browser is idle.
      const untaken = (event: Event) => {
        if (event !== click || event.defaultPrevented) return;
        event.preventDefault();
        whenIdle(() => replay(false));
      };
      if (soonest && link) window.addEventListener('click', untaken);
      clicked.dispatchEvent(click);
      window.removeEventListener('click', untaken);
    };
    held = replay;
  }

  function onSubmit(event: SubmitEvent) {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || !root.contains(form)) return;
    event.preventDefault();
    event.stopPropagation();
    heldLink = null;
    const submitter = event.submitter;
    held = () => {
      if (!form.isConnected) return;
      if (submitter?.isConnected) form.requestSubmit(submitter);
      else form.requestSubmit();
    };
  }

  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);

  function stopIntentListening() {
    if (!intentListener) return;
    for (const type of INTENT_EVENTS) document.removeEventListener(type, intentListener, true);
    intentListener = null;
  }

  return {
    onFirstIntent(start) {
      stopIntentListening();
      intentListener = () => {
        stopIntentListening();
        start();
      };
      for (const type of INTENT_EVENTS) document.addEventListener(type, intentListener, { capture: true, passive: true });
    },
    release() {
      stopIntentListening();
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
      const replay = held;
      const link = heldLink;
      held = null;
      heldLink = null;
      if (!replay) return;
      // The app attaches to a page in parts (a Suspense boundary per figure), and React drops a
      // click on a part not yet attached; once the browser is idle, every part is. A link's click
      // goes at once, since the app shows whether it took it; a button's or a form's waits.
      if (link) replay(true);
      else whenIdle(() => replay(false));
    },
    followHeldLink() {
      const link = heldLink;
      held = null;
      heldLink = null;
      if (link?.isConnected) window.location.assign(link.href);
    },
  };
}
