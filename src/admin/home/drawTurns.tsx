import { startTransition, useEffect, useState } from 'react';

/**
 * The Home's charts are drawn one at a time, each in a render and commit of its own: drawn
 * together, the two or three in view took one task of about 75 ms on a laptop, four times that on
 * a phone, as MUI X Charts measures its axes and renders again (issue 28). A chart whose drawing
 * never reports (it failed) gives its turn up after a while.
 */
const TURN_LIMIT_MS = 1000;

type Grant = () => void;
const waiting: Grant[] = [];
let drawing: Grant | null = null;
let limit: ReturnType<typeof setTimeout> | undefined;

function next() {
  clearTimeout(limit);
  const grant = waiting.shift() ?? null;
  drawing = grant;
  if (!grant) return;
  grant();
  limit = setTimeout(() => finish(grant), TURN_LIMIT_MS);
}

function wait(grant: Grant) {
  if (drawing === grant || waiting.includes(grant)) return;
  waiting.push(grant);
  if (drawing === null) next();
}

function leave(grant: Grant) {
  const index = waiting.indexOf(grant);
  if (index >= 0) waiting.splice(index, 1);
}

/** The chart whose turn it is has drawn (or is gone): the next one's turn comes in a task of its own. */
function finish(grant: Grant) {
  leave(grant);
  if (drawing !== grant) return;
  drawing = null;
  clearTimeout(limit);
  setTimeout(() => {
    if (drawing === null) next();
  }, 0);
}

/**
 * Whether the chart may draw: once it has come `near` the screen and its turn has come, and from
 * then on. Also returns the call that ends its turn, made by `ChartDrawn` once it has drawn.
 */
export function useDrawTurn(near: boolean): [boolean, () => void] {
  const [granted, setGranted] = useState(false);
  // One identity per chart, for the queue: its grant, and the end of its turn.
  const [turn] = useState(() => {
    const grant: Grant = () => startTransition(() => setGranted(true));
    return { grant, end: () => finish(grant) };
  });
  useEffect(() => {
    if (!near || granted) return;
    wait(turn.grant);
    return () => leave(turn.grant);
  }, [near, granted, turn]);
  // A chart gone before it drew gives its turn up.
  useEffect(() => turn.end, [turn]);
  return [granted, turn.end];
}

/** Rendered beside the chart, inside its Suspense boundary: its effect runs once the chart has been drawn. */
export function ChartDrawn({ onDrawn }: { onDrawn: () => void }) {
  useEffect(() => onDrawn(), [onDrawn]);
  return null;
}
