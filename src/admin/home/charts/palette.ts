/**
 * The charts' colours. Each series colour has at least 3:1 contrast against the white card (WCAG
 * 1.4.11, non-text contrast); the text at least 4.5:1 (WCAG 1.4.3). Legend swatches use the same.
 */
export const SERIES_COLOURS = ['#1565c0', '#ef6c00', '#2e7d32', '#6a1b9a', '#c62828', '#00838f'] as const;

/** The colour of the `index`th series or slice, round the palette again past its end. */
export const seriesColour = (index: number): string => SERIES_COLOURS[index % SERIES_COLOURS.length] ?? SERIES_COLOURS[0];

/** Tick labels, axis titles and the legend: 6.2:1 on white. */
export const TEXT_COLOUR = '#616161';
/** Gridlines: light, behind the marks. */
export const GRID_COLOUR = '#e0e0e0';
/** The value axis's zero line, a shade darker than the gridlines. */
export const BASELINE_COLOUR = '#9e9e9e';
/** The donut's ring where no slice is drawn (nothing to share out). */
export const TRACK_COLOUR = '#eeeeee';
