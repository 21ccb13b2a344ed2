import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { BarChart, DonutChart, HorizontalBarChart, LineChart, SERIES_COLOURS } from '../../src/admin/home/charts/index';
import { categoryLabelSteps, niceAxis } from '../../src/admin/home/charts/axis';
import { TEXT_COLOUR } from '../../src/admin/home/charts/palette';

// The Home's charts are drawn by the server's render: their markup is the chart, the same in the browser.
const days = (n: number) => Array.from({ length: n }, (_, i) => `Day ${i + 1}`);
const tick = (n: number) => String(n);
const marks = (root: ParentNode) => [...root.querySelectorAll<SVGRectElement>('[data-chart-mark]')];
const attr = (element: Element, name: string) => Number(element.getAttribute(name));
const labels = (root: ParentNode, selector: string) => [...root.querySelectorAll(selector)].map((e) => e.textContent);

describe('the value axis', () => {
  it.each([
    [0, true, [0, 1]],
    [1, true, [0, 1]],
    [3, true, [0, 1, 2, 3]],
    [4, true, [0, 1, 2, 3, 4]],
    [7, true, [0, 2, 4, 6, 8]],
    [9, true, [0, 5, 10]],
    [9, false, [0, 2.5, 5, 7.5, 10]],
    [20, true, [0, 5, 10, 15, 20]],
    [99, true, [0, 25, 50, 75, 100]],
    [123, true, [0, 50, 100, 150]],
    [29.97, false, [0, 10, 20, 30]],
    [1.2, false, [0, 0.5, 1, 1.5]],
    [0.3, false, [0, 0.1, 0.2, 0.3]],
    [40_000, true, [0, 10_000, 20_000, 30_000, 40_000]],
    [Number.NaN, true, [0, 1]],
  ])('runs from 0 to a nice top above %s (whole: %s): %j', (max, whole, ticks) => {
    const axis = niceAxis(max, whole);
    expect(axis.ticks).toEqual(ticks);
    expect(axis.max).toBe(ticks.at(-1));
    if (whole) expect(axis.ticks.every(Number.isInteger)).toBe(true);
  });
});

describe('the category labels', () => {
  it.each([
    [1, 1, 1],
    [7, 2, 1],
    [14, 3, 3],
    [30, 6, 3],
    [90, 18, 9],
    [365, 73, 73],
  ])('of %s categories show every %sth on a narrow chart, every %sth on a wide one', (count, narrow, wide) => {
    expect(categoryLabelSteps(count)).toEqual({ narrow, wide });
    expect(Math.ceil(count / narrow)).toBeLessThanOrEqual(5);
    expect(Math.ceil(count / wide)).toBeLessThanOrEqual(12);
    expect(narrow % wide).toBe(0);
  });

  it('are thinned out under 90 days of bars: five on a phone, ten more only on a wide chart', () => {
    const { container } = render(
      <BarChart
        height={240}
        categories={days(90)}
        series={[{ label: 'Sign-ups', values: new Array<number>(90).fill(1) }]}
        valueLabel="Sign-ups"
        formatTick={tick}
      />,
    );
    expect(labels(container, '.sage-chart-categories .sage-chart-label:not(.sage-chart-label-wide)')).toEqual([
      'Day 1',
      'Day 19',
      'Day 37',
      'Day 55',
      'Day 73',
    ]);
    expect(labels(container, '.sage-chart-categories .sage-chart-label')).toHaveLength(10);
    expect(marks(container)).toHaveLength(90);
  });
});

describe('bar charts', () => {
  it('draw each bar as tall as its share of the axis, exactly as tall as asked, with the axis and titles as text', () => {
    const { container } = render(
      <BarChart
        height={240}
        categories={['Mon', 'Tue', 'Wed', 'Thu']}
        series={[{ label: 'Queries', values: [0, 5, 10, 20] }]}
        valueLabel="Queries"
        categoryLabel="Day"
        formatTick={(n) => `${n}q`}
      />,
    );
    const chart = container.querySelector<HTMLElement>('.sage-chart.sage-chart-bar')!;
    expect(chart.style.height).toBe('240px');
    expect(marks(container).map((bar) => [bar.dataset.category, attr(bar, 'data-value'), attr(bar, 'height'), attr(bar, 'y')])).toEqual([
      ['Mon', 0, 0, 100],
      ['Tue', 5, 25, 75],
      ['Wed', 10, 50, 50],
      ['Thu', 20, 100, 0],
    ]);
    expect(labels(container, '.sage-chart-ticks .sage-chart-label')).toEqual(['0q', '5q', '10q', '15q', '20q']);
    expect(container.querySelector('.sage-chart-value-title')).toHaveTextContent('Queries');
    expect(container.querySelector('.sage-chart-axis-title')).toHaveTextContent('Day');
    // Decoration beside a summary and a table: nothing takes focus, and SVG holds no text.
    expect(container.querySelectorAll('a, button, input, [tabindex], svg text')).toHaveLength(0);
  });

  it('stack the series when stacked, each on the one below, with a legend; else draw the first alone', () => {
    const series = [
      { label: 'Epic', values: [2, 0] },
      { label: 'E-mail', values: [2, 4] },
    ];
    const { container } = render(
      <BarChart height={269} categories={['Mon', 'Tue']} series={series} stacked legend valueLabel="Sign-ups" formatTick={tick} />,
    );
    const [epicMon, emailMon, epicTue, emailTue] = marks(container).map((bar) => ({
      y: attr(bar, 'y'),
      height: attr(bar, 'height'),
      fill: bar.getAttribute('fill'),
    }));
    expect(epicMon).toEqual({ y: 50, height: 50, fill: SERIES_COLOURS[0] });
    expect(emailMon).toEqual({ y: 0, height: 50, fill: SERIES_COLOURS[1] });
    expect(epicTue).toEqual({ y: 100, height: 0, fill: SERIES_COLOURS[0] });
    expect(emailTue).toEqual({ y: 0, height: 100, fill: SERIES_COLOURS[1] });
    expect(labels(container, '[data-chart-legend]')).toEqual(['Epic', 'E-mail']);
    expect(container.querySelector('[data-chart-legend] rect')).toHaveAttribute('fill', SERIES_COLOURS[0]);

    const unstacked = render(<BarChart height={240} categories={['Mon', 'Tue']} series={series} valueLabel="Sign-ups" formatTick={tick} />);
    expect(marks(unstacked.container).map((bar) => bar.dataset.series)).toEqual(['Epic', 'Epic']);
    expect(unstacked.container.querySelector('.sage-chart-legend')).toBeNull();
  });

  it('draw an axis from 0 to 1 and flat bars when every value is zero', () => {
    const { container } = render(
      <BarChart
        height={240}
        categories={days(14)}
        series={[{ label: 'Credits', values: new Array<number>(14).fill(0) }]}
        valueLabel="Credits"
        formatTick={tick}
      />,
    );
    expect(labels(container, '.sage-chart-ticks .sage-chart-label')).toEqual(['0', '1']);
    expect(marks(container).map((bar) => attr(bar, 'height'))).toEqual(new Array(14).fill(0));
  });

  it('lay horizontal bars out as rows, each as long as its share of the axis', () => {
    const statuses = ['Active', 'Trialing', 'Canceled'];
    const { container } = render(
      <HorizontalBarChart
        height={240}
        categories={statuses}
        series={[{ label: 'Subscriptions', values: [30, 15, 0] }]}
        valueLabel="Subscriptions"
        formatTick={tick}
      />,
    );
    expect(marks(container).map((bar) => [bar.dataset.category, attr(bar, 'data-value'), attr(bar, 'width')])).toEqual([
      ['Active', 30, 100],
      ['Trialing', 15, 50],
      ['Canceled', 0, 0],
    ]);
    expect(labels(container, '.sage-chart-categories .sage-chart-label')).toEqual(statuses);
    expect(labels(container, '.sage-chart-ticks .sage-chart-label')).toEqual(['0', '10', '20', '30']);
  });
});

describe('line charts', () => {
  it('draw one line through each value, at the centre of its band, and the area under it when asked', () => {
    const { container } = render(
      <LineChart
        height={240}
        categories={['Mon', 'Tue', 'Wed', 'Thu']}
        series={[{ label: 'Messages', values: [0, 20, 40, 10] }]}
        area
        valueLabel="Messages"
        formatTick={tick}
      />,
    );
    const line = container.querySelector('path[data-chart-line]')!;
    expect(line).toHaveAttribute('data-values', '0,20,40,10');
    expect(line).toHaveAttribute('vector-effect', 'non-scaling-stroke');
    expect(line.getAttribute('d')).toBe('M12.5 100L37.5 50L62.5 0L87.5 75');
    expect(container.querySelector('path[data-chart-area]')).toHaveAttribute('d', 'M12.5 100L12.5 100L37.5 50L62.5 0L87.5 75L87.5 100Z');
  });
});

describe('donut charts', () => {
  const slices = (root: ParentNode) => [...root.querySelectorAll('[data-chart-slice]')];

  it('share the full circle out among the slices, in order from 12 o’clock, under a legend', () => {
    const { container } = render(
      <DonutChart
        height={240}
        slices={[
          { label: 'Converted', value: 1 },
          { label: 'Not converted', value: 3 },
          { label: 'Lapsed', value: 0 },
        ]}
      />,
    );
    const drawn = slices(container).map((slice) => [
      slice.getAttribute('data-category'),
      attr(slice, 'data-start'),
      attr(slice, 'data-end'),
      slice.hasAttribute('d'),
    ]);
    expect(drawn).toEqual([
      ['Converted', 0, 90, true],
      ['Not converted', 90, 360, true],
      ['Lapsed', 360, 360, false],
    ]);
    expect(labels(container, '[data-chart-legend]')).toEqual(['Converted', 'Not converted', 'Lapsed']);
    expect(container.querySelector<HTMLElement>('.sage-chart-donut')!.style.height).toBe('240px');
  });

  it('draw a single slice of everything as a whole ring: two half arcs for each edge', () => {
    const { container } = render(
      <DonutChart
        height={240}
        slices={[
          { label: 'Converted', value: 0 },
          { label: 'Not converted', value: 4 },
        ]}
      />,
    );
    const [none, all] = slices(container);
    expect(none).not.toHaveAttribute('d');
    expect([attr(all!, 'data-start'), attr(all!, 'data-end')]).toEqual([0, 360]);
    expect(all!.getAttribute('d')!.match(/A/g)).toHaveLength(4);
    expect(all).toHaveAttribute('fill-rule', 'evenodd');
  });
});

/** WCAG's relative luminance and contrast ratio of a `#rrggbb` colour against white. */
function contrastOnWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 1.05 / (0.2126 * r! + 0.7152 * g! + 0.0722 * b! + 0.05);
}

describe('the charts’ colours', () => {
  it('stand out from the white card: marks 3:1 (WCAG 1.4.11), text 4.5:1', () => {
    expect(SERIES_COLOURS.length).toBeGreaterThanOrEqual(3);
    for (const colour of SERIES_COLOURS) expect(contrastOnWhite(colour)).toBeGreaterThanOrEqual(3);
    expect(contrastOnWhite(TEXT_COLOUR)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('the server’s markup', () => {
  const charts: [string, ReactElement][] = [
    [
      'bar',
      <BarChart
        key="bar"
        height={269}
        categories={days(90)}
        series={[
          { label: 'Epic', values: days(90).map((_, i) => i % 7) },
          { label: 'E-mail', values: days(90).map((_, i) => i % 3) },
        ]}
        stacked
        legend
        valueLabel="Sign-ups"
        categoryLabel="Day"
        formatTick={tick}
      />,
    ],
    [
      'horizontal bar',
      <HorizontalBarChart
        key="hbar"
        height={240}
        categories={['Active', 'Canceled']}
        series={[{ label: 'Subscriptions', values: [3, 1] }]}
        valueLabel="Subscriptions"
        formatTick={tick}
      />,
    ],
    [
      'line',
      <LineChart
        key="line"
        height={240}
        categories={days(30)}
        series={[{ label: 'Sign-ins', values: days(30).map((_, i) => i * 1.5) }]}
        area
        valueLabel="Sign-ins"
        formatTick={tick}
      />,
    ],
    [
      'donut',
      <DonutChart
        key="donut"
        height={240}
        slices={[
          { label: 'Converted', value: 1 },
          { label: 'Not converted', value: 2 },
        ]}
      />,
    ],
  ];

  it.each(charts)('of a %s chart is what the browser renders: the same each time, and hydrated without a mismatch', async (_, chart) => {
    const html = renderToString(chart);
    expect(renderToString(chart)).toBe(html);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error');
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, chart, { onRecoverableError: recoverable }));
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    expect(container.innerHTML).toBe(html);
    act(() => root.unmount());
    container.remove();
  });
});
