import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdEarlyInput } from '../../src/start/earlyInput';

/** A pre-rendered page's markup, before any app code runs it. */
function renderedPage() {
  const root = document.createElement('div');
  root.innerHTML = `
    <a href="#elsewhere">Login</a>
    <button type="button" id="menu">Open menu</button>
    <form id="form" method="post"><input name="email" /><button type="submit" id="send">Send</button></form>`;
  document.body.append(root);
  const outside = document.createElement('button');
  document.body.append(outside);
  return { root, outside, button: root.querySelector<HTMLButtonElement>('#menu')!, form: root.querySelector<HTMLFormElement>('#form')! };
}

describe('holdEarlyInput (decision 010)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    // A link clicked by a test navigates within the page: the next test starts without its fragment.
    window.location.hash = '';
  });

  it('holds a click on a control until the app runs the page, then replays it once', async () => {
    const { root, button } = renderedPage();
    const early = holdEarlyInput(root);
    const clicks = vi.fn();
    button.addEventListener('click', clicks);
    button.click();
    expect(clicks).not.toHaveBeenCalled();
    early.release();
    await vi.waitFor(() => expect(clicks).toHaveBeenCalledTimes(1));
    button.click();
    expect(clicks).toHaveBeenCalledTimes(2);
  });

  it('replays a held click once the browser is idle, when React has attached every part of the page', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
    try {
      const { root, button } = renderedPage();
      const early = holdEarlyInput(root);
      const clicks = vi.fn();
      button.addEventListener('click', clicks);
      button.click();
      early.release();
      // React attaches the page's parts in tasks of its own; a click reaching one before then is lost.
      expect(clicks).not.toHaveBeenCalled();
      idle.forEach((work) => work());
      expect(clicks).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('replays only the last click held', async () => {
    const { root, button, form } = renderedPage();
    const early = holdEarlyInput(root);
    const menuClicks = vi.fn();
    const sendClicks = vi.fn((event: Event) => event.preventDefault());
    button.addEventListener('click', menuClicks);
    form.querySelector('#send')!.addEventListener('click', sendClicks);
    button.click();
    (form.querySelector('#send') as HTMLButtonElement).click();
    early.release();
    await vi.waitFor(() => expect(sendClicks).toHaveBeenCalledTimes(1));
    expect(menuClicks).not.toHaveBeenCalled();
  });

  it('lets links navigate and leaves controls outside the page alone', () => {
    const { root, outside } = renderedPage();
    holdEarlyInput(root);
    const link = root.querySelector('a')!;
    const linkClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(linkClick);
    expect(linkClick.defaultPrevented).toBe(false);
    const outsideClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    outside.dispatchEvent(outsideClick);
    expect(outsideClick.defaultPrevented).toBe(false);
  });

  it('holds a submit (Enter in a field) instead of posting the form, and submits it again for the app', async () => {
    const { root, form } = renderedPage();
    const early = holdEarlyInput(root);
    const submits = vi.fn((event: Event) => event.preventDefault());
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    form.addEventListener('submit', submits);
    early.release();
    await vi.waitFor(() => expect(submits).toHaveBeenCalledTimes(1));
  });

  it('starts the app on the first sign of intent, once', () => {
    const { root } = renderedPage();
    const early = holdEarlyInput(root);
    const start = vi.fn();
    early.onFirstIntent(start);
    root.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('never starts the app for the pointer passing over the page or a wheel, only for a reach for a control', () => {
    const { root } = renderedPage();
    const early = holdEarlyInput(root);
    const start = vi.fn();
    early.onFirstIntent(start);
    document.dispatchEvent(new Event('pointermove'));
    document.dispatchEvent(new Event('wheel'));
    expect(start).toHaveBeenCalledTimes(0);
    // A touch starts it, once.
    document.dispatchEvent(new Event('pointerdown'));
    expect(start).toHaveBeenCalledTimes(1);
  });

  describe('links to a page the server sends as the app’s shell (the console’s pages but the Home)', () => {
    function consolePage() {
      const root = document.createElement('div');
      root.innerHTML = `
        <a href="/admin/users"><svg><path /></svg><span>User List</span></a>
        <a href="/admin/users" target="_blank" id="new-tab">User List in a new tab</a>
        <a href="/download" id="download">Download</a>
        <a href="#users" id="fragment">Users</a>`;
      document.body.append(root);
      return root;
    }
    const holdsShell = (url: URL) => url.pathname.startsWith('/admin/') || url.hash === '#users';
    const click = (target: Element, init: MouseEventInit = {}) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
      target.dispatchEvent(event);
      return event;
    };

    it('holds a plain click on one, on its icon too, and replays it once the app runs the page', async () => {
      const root = consolePage();
      const early = holdEarlyInput(root, holdsShell);
      const link = root.querySelector('a')!;
      // The app's router: a client-side navigation instead of a page load.
      const navigations = vi.fn((event: Event) => event.preventDefault());
      link.addEventListener('click', navigations);
      expect(click(root.querySelector('path')!).defaultPrevented).toBe(true);
      expect(navigations).not.toHaveBeenCalled();
      // At once: the app shows it took the click by cancelling the page load.
      early.release();
      expect(navigations).toHaveBeenCalledTimes(1);
    });

    it('keeps a link click the app did not take yet (a part React has not attached) and replays it once the browser is idle', () => {
      const idle: (() => void)[] = [];
      vi.stubGlobal('requestIdleCallback', (work: () => void) => idle.push(work));
      try {
        const root = consolePage();
        const early = holdEarlyInput(root, holdsShell);
        const link = root.querySelector('a')!;
        click(link);
        // The app does not take the first replay (it does not cancel the page load); it takes the second.
        const replays: Event[] = [];
        link.addEventListener('click', (event) => {
          replays.push(event);
          if (replays.length === 2) event.preventDefault();
        });
        early.release();
        expect(replays).toHaveLength(1);
        // Kept: the page load the browser would have started is cancelled.
        expect(replays[0]!.defaultPrevented).toBe(true);
        idle.forEach((work) => work());
        expect(replays).toHaveLength(2);
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('lets a new tab, a modified click and a link to a page the server renders go as the browser takes them', () => {
      const root = consolePage();
      holdEarlyInput(root, holdsShell);
      const link = root.querySelector('a')!;
      expect(click(link, { ctrlKey: true }).defaultPrevented).toBe(false);
      expect(click(link, { metaKey: true }).defaultPrevented).toBe(false);
      expect(click(link, { button: 1 }).defaultPrevented).toBe(false);
      expect(click(root.querySelector('#new-tab')!).defaultPrevented).toBe(false);
      expect(click(root.querySelector('#download')!).defaultPrevented).toBe(false);
    });

    it('follows a held link as the browser would have when the app cannot start', () => {
      const root = consolePage();
      const early = holdEarlyInput(root, holdsShell);
      expect(click(root.querySelector('#fragment')!).defaultPrevented).toBe(true);
      expect(window.location.hash).toBe('');
      early.followHeldLink();
      expect(window.location.hash).toBe('#users');
      window.location.hash = '';
    });
  });
});
