import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster, useToast, type ToastInput } from '../../src/ui/toast';

/** A screen with one button per toast it can raise. */
function Raiser({ toasts }: { toasts: ToastInput[] }) {
  const toast = useToast();
  return (
    <>
      {toasts.map((t) => (
        <button key={t.title} type="button" onClick={() => toast(t)}>
          {`raise ${t.title}`}
        </button>
      ))}
    </>
  );
}

function renderToaster(toasts: ToastInput[]) {
  render(
    <Toaster>
      <Raiser toasts={toasts} />
    </Toaster>,
  );
  return (title: string) => fireEvent.click(screen.getByRole('button', { name: `raise ${title}` }));
}

/** A touch drag from left to right over `distance` pixels. */
function swipeRight(element: Element, distance: number) {
  const pointer = { pointerId: 1, pointerType: 'touch', button: 0, buttons: 1, isPrimary: true };
  fireEvent.pointerDown(element, { ...pointer, clientX: 100, clientY: 100 });
  for (let x = 100; x <= 100 + distance; x += 10) fireEvent.pointerMove(element, { ...pointer, clientX: x, clientY: 100 });
  fireEvent.pointerUp(element, { ...pointer, clientX: 100 + distance, clientY: 100 });
}

describe('Toaster (§4, §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // jsdom has no pointer capture, which Radix's swipe handling calls.
    let captured: number | null = null;
    Element.prototype.setPointerCapture = (id: number) => void (captured = id);
    Element.prototype.hasPointerCapture = (id: number) => captured === id;
    Element.prototype.releasePointerCapture = () => void (captured = null);
  });
  afterEach(() => vi.useRealTimers());

  it('shows one toast at a time: a new one replaces the one on screen', () => {
    const raise = renderToaster([{ title: 'First' }, { title: 'Second', description: 'More' }]);
    raise('First');
    expect(screen.getByText('First')).toBeInTheDocument();
    raise('Second');
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(screen.getByText('More')).toBeInTheDocument();
    expect(screen.queryByText('First')).not.toBeInTheDocument();
  });

  it('closes a toast after 5000 ms', () => {
    const raise = renderToaster([{ title: 'Saved' }]);
    raise('Saved');
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('closes from its Close button', () => {
    const raise = renderToaster([{ title: 'Saved' }]);
    raise('Saved');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });

  it('F8 moves focus to the notifications region', () => {
    const raise = renderToaster([{ title: 'Saved' }]);
    raise('Saved');
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    const region = screen.getByRole('region', { name: /Notifications \(F8\)/ });
    expect(region.contains(document.activeElement)).toBe(true);
  });

  it('is dismissed by a swipe right past 50 px, but not by a shorter one', () => {
    const raise = renderToaster([{ title: 'Saved' }]);
    raise('Saved');
    const toast = screen.getByText('Saved').closest('li')!;
    swipeRight(toast, 40);
    expect(screen.getByText('Saved')).toBeInTheDocument();
    swipeRight(toast, 80);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  });
});
