/** A legend entry: what a colour stands for. */
export interface LegendEntry {
  label: string;
  colour: string;
}

/** The legend above a chart; its swatches are SVG, which forced-colours mode keeps (a background it would not). */
export function Legend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <div className="sage-chart-legend">
      {entries.map((entry, i) => (
        <span key={i} className="sage-chart-legend-item" data-chart-legend={entry.label}>
          <svg width="12" height="12" viewBox="0 0 12 12">
            <rect width="12" height="12" rx="2" fill={entry.colour} />
          </svg>
          {entry.label}
        </span>
      ))}
    </div>
  );
}
