/** A value axis from 0: its top and the values it marks, 0 included. */
export interface ValueAxis {
  max: number;
  ticks: number[];
}

/** The steps an axis counts in, within each power of ten (1, 2, 2.5 and 5 × 10^k). */
const STEPS = [1, 2, 2.5, 5];
/** At most this many intervals: 4–5 ticks (3 only where 2 → 5 skips 4, e.g. 0, 5, 10). */
const MOST_INTERVALS = 4;

/** Without floating-point dust: 3 × 0.1 is 0.3, not 0.30000000000000004. */
const tidy = (value: number): number => Number(value.toFixed(10));

/** What a value draws as: a missing, negative or non-finite value as nothing. */
export const drawable = (value: number | undefined): number => (value !== undefined && Number.isFinite(value) && value > 0 ? value : 0);

/**
 * The axis from 0 to a nice top above `dataMax`: the smallest step of 1, 2, 2.5 or 5 × 10^k that
 * covers it in at most 4 intervals. `whole` (counts) keeps every tick a whole number. With nothing
 * to draw the axis still runs from 0 to 1.
 */
export function niceAxis(dataMax: number, whole: boolean): ValueAxis {
  const top = drawable(dataMax) || 1;
  let power = 10 ** Math.floor(Math.log10(top / MOST_INTERVALS));
  for (;;) {
    for (const multiple of STEPS) {
      const step = tidy(multiple * power);
      if (whole && !Number.isInteger(step)) continue;
      const intervals = Math.ceil(tidy(top / step));
      if (intervals <= MOST_INTERVALS) {
        const ticks = Array.from({ length: intervals + 1 }, (_, i) => tidy(i * step));
        return { max: tidy(intervals * step), ticks };
      }
    }
    power *= 10;
  }
}

/** The axis for these values: whole ticks when every value is whole (counts). */
export const axisFor = (dataMax: number, values: readonly number[]): ValueAxis => niceAxis(dataMax, values.every(Number.isInteger));

/** A coordinate to a thousandth: short markup, the same on the server and in the browser. */
export const thousandths = (n: number): number => Math.round(n * 1000) / 1000;

/** `value` as a percentage of the axis, rounded so the markup stays short (and the same everywhere). */
export const percentOf = (value: number | undefined, max: number): number => thousandths((drawable(value) / max) * 100);

/** Show every `step`th label so that at most `most` of `count` labels show. */
export const labelStep = (count: number, most: number): number => Math.max(1, Math.ceil(count / Math.max(1, most)));

/**
 * Category labels (a chart cannot measure its width): a narrow chart (a phone, about 230 px of
 * plot, a `Nov 30` about 40 px) shows at most 5; a wide one (640 px and more) at most 12, among
 * them the narrow chart's, so its step divides the narrow step.
 */
export const NARROW_LABELS = 5;
export const WIDE_LABELS = 12;

export function categoryLabelSteps(count: number): { narrow: number; wide: number } {
  const narrow = labelStep(count, NARROW_LABELS);
  let wide = 1;
  // The smallest divisor of the narrow step that shows at most 12: the narrow step itself at the latest.
  while (narrow % wide !== 0 || Math.ceil(count / wide) > WIDE_LABELS) wide += 1;
  return { narrow, wide };
}
