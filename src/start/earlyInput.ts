/** What counts as reaching for the page: the app starts loading on the first of these. */
const INTENT_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin'];

export interface EarlyInput {
  /** Calls `start` once, on the first sign that the visitor is about to use a control. */
  onFirstIntent(start: () => void): void;
  /** The app runs the page now: replays the click or submit held meanwhile, and stops holding. */
  release(): void;
}

/**
 * Until the app runs a pre-rendered page, its controls are plain markup: links and downloads work,
 * but a button would do nothing and a form would post itself natively. This holds the last click
 * or submit on such a control inside `root` and replays it once the app has taken over, so no
 * click is lost and no form leaves the page unhandled. Text typed meanwhile stays in its field:
 * the app reads the fields themselves.
 */
export function holdEarlyInput(root: HTMLElement): EarlyInput {
  let held: (() => void) | null = null;
  let intentListener: (() => void) | null = null;

  function onClick(event: MouseEvent) {
    const target = event.target instanceof Element ? event.target : null;
    // Links navigate by themselves: a full page load of a page the server renders.
    if (!target || !root.contains(target) || target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    // Dispatched rather than element.click(): the target may be an icon's SVG, which has no click().
    held = () => {
      if (target.isConnected) target.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
    };
  }

  function onSubmit(event: SubmitEvent) {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (!form || !root.contains(form)) return;
    event.preventDefault();
    event.stopPropagation();
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
      held = null;
      replay?.();
    },
  };
}
