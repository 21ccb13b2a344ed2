import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { ChartDrawn, useDrawTurn } from '../../src/admin/home/drawTurns';

// The Home's charts are drawn one at a time, each in a commit of its own (issue 28).
const commits: string[] = [];

function Chart({ name, near, draws = true }: { name: string; near: boolean; draws?: boolean }) {
  const [draw, drawn] = useDrawTurn(near);
  // What the page shows as this chart's drawing is committed: no other chart drawn in the same commit.
  useEffect(() => {
    if (draw) commits.push(`${name}: ${document.body.textContent?.match(/drawn/g)?.length ?? 0} drawn`);
  }, [draw, name]);
  if (!draw) return <p>{name} waits</p>;
  return (
    <p>
      {name} drawn
      {draws && <ChartDrawn onDrawn={drawn} />}
    </p>
  );
}

const nextTask = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe('charts drawn in turns', () => {
  it('draws the charts near the screen one after another, each in a commit of its own, and never one that is not near', async () => {
    commits.length = 0;
    render(
      <>
        <Chart name="Sign-ups" near />
        <Chart name="Queries" near />
        <Chart name="Revenue" near={false} />
      </>,
    );
    await screen.findByText('Queries drawn');
    await nextTask();
    expect(commits).toEqual(['Sign-ups: 1 drawn', 'Queries: 2 drawn']);
    expect(screen.getByText('Revenue waits')).toBeInTheDocument();
  });

  it('gives the turn up at once for a chart that is gone before it drew', async () => {
    const { rerender } = render(
      <>
        <Chart name="Sign-ups" near draws={false} />
        <Chart name="Queries" near />
      </>,
    );
    await screen.findByText('Sign-ups drawn');
    await nextTask();
    expect(screen.getByText('Queries waits')).toBeInTheDocument();
    rerender(<Chart key="queries" name="Queries" near />);
    // At once, not after the turn's time limit (a second).
    await nextTask();
    await nextTask();
    expect(screen.getByText('Queries drawn')).toBeInTheDocument();
  });
});
