// Hand-made charts, rendered on the server as HTML boxes sized in percent: no chart library, and
// no SVG. A drawing scaled to its box scales its text with it (a 720-unit drawing set its labels
// at 9 px in half of a desktop and 5 px on a phone); here the labels are text of the page, at the
// console's size whatever the chart's width. A small client component adds the tooltip.
import type { CSSProperties } from 'react';
import { ChartTooltip } from './chart-tooltip';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

export interface StackedBucket {
  label: string;
  /** Long label for the tooltip. */
  title: string;
  values: Record<string, number>;
}

/**
 * How many dates the time axis shows for the chart's width (CSS container queries in console.css
 * show one row): a date and hour ("24/11 04:00") needs about 80 px to stay clear of the next.
 */
const AXIS_DENSITIES = [
  { name: 'two', labels: 2 },
  { name: 'few', labels: 3 },
  { name: 'some', labels: 5 },
  { name: 'many', labels: 8 },
] as const;

/** A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power;
}

const percent = (value: number, max: number) => `${(value / max) * 100}%`;

export function StackedBarChart({ title, buckets, series }: { title: string; buckets: StackedBucket[]; series: ChartSeries[] }) {
  const totals = buckets.map((bucket) => series.reduce((sum, entry) => sum + (bucket.values[entry.key] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  // The scale's marks, top first: the maximum, its half when it is a whole number, and zero.
  const marks = [1, 0.5, 0].map((fraction) => max * fraction).filter((value) => Number.isInteger(value));
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <ChartTooltip>
        <div className="bar-chart" role="img" aria-label={title}>
          <div className="bar-chart-scale">
            {marks.map((value) => (
              <span key={value} className="chart-label">
                {value.toLocaleString('es-GT')}
              </span>
            ))}
          </div>
          <div className="bar-chart-plot">
            {marks.map((value) => (
              <span key={value} className="bar-chart-rule" style={{ bottom: percent(value, max) }} />
            ))}
            {buckets.map((bucket, index) => {
              const tip = [bucket.title, ...series.map((entry) => `${entry.label}: ${(bucket.values[entry.key] ?? 0).toLocaleString('es-GT')}`), `Total: ${totals[index]!.toLocaleString('es-GT')}`].join('\n');
              return (
                <div key={bucket.title + index} className="bar-chart-column" data-tip={tip}>
                  {series.map((entry) => {
                    const value = bucket.values[entry.key] ?? 0;
                    return value === 0 ? null : <span key={entry.key} className="bar-chart-segment" style={{ height: percent(value, max), background: entry.color }} />;
                  })}
                </div>
              );
            })}
          </div>
          {AXIS_DENSITIES.map((density) => (
            <TimeAxis key={density.name} buckets={buckets} labels={density.labels} className={`bar-chart-axis axis-${density.name}`} />
          ))}
        </div>
      </ChartTooltip>
      <Legend series={series} />
    </figure>
  );
}

/**
 * One row of dates under the columns: every so many columns, each date starting under its column
 * and given the room of the columns up to the next, so no two overlap. A last date without that
 * room is left out rather than pushed past the chart's edge.
 */
function TimeAxis({ buckets, labels, className }: { buckets: StackedBucket[]; labels: number; className: string }) {
  const every = Math.max(1, Math.ceil(buckets.length / labels));
  return (
    <div className={className} style={{ gridTemplateColumns: `repeat(${Math.max(buckets.length, 1)}, minmax(0, 1fr))` }}>
      {buckets.map((bucket, index) =>
        index % every === 0 && index + every <= buckets.length ? (
          <span key={index} className="chart-label" style={{ gridColumn: `${index + 1} / span ${every}` }}>
            {bucket.label}
          </span>
        ) : null,
      )}
    </div>
  );
}

export interface GroupedBarRow {
  label: string;
  values: Record<string, number | null>;
}

/** Horizontal bars, one group per row (e.g. p50 and p95 per lookup), each with its figure beside it. */
export function GroupedHorizontalBars({
  title,
  rows,
  series,
  unit,
}: {
  title: string;
  rows: GroupedBarRow[];
  series: ChartSeries[];
  unit: string;
}) {
  const max = niceMax(Math.max(0, ...rows.flatMap((row) => series.map((entry) => row.values[entry.key] ?? 0))));
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <div className="hbar-chart" role="img" aria-label={title}>
        {rows.map((row) => (
          <div key={row.label} className="hbar-group">
            <span className="chart-label hbar-name">{row.label}</span>
            <div className="hbar-lines">
              {series.map((entry) => {
                const value = row.values[entry.key] ?? null;
                const figure = value === null ? 'sin datos' : `${value.toLocaleString('es-GT')} ${unit}`;
                return (
                  <div key={entry.key} className="hbar-line" title={`${row.label} · ${entry.label}: ${figure}`}>
                    <span className="hbar" style={{ '--share': value ? value / max : 0, background: entry.color } as CSSProperties} />
                    <span className="chart-label">{value === null ? '—' : figure}</span>
                  </div>
                );
              })}
            </div>
          </div>
        ))}
      </div>
      <Legend series={series} />
    </figure>
  );
}

function Legend({ series }: { series: ChartSeries[] }) {
  return (
    <figcaption className="legend">
      {series.map((entry) => (
        <span key={entry.key} style={{ ['--swatch' as string]: entry.color }}>
          {entry.label}
        </span>
      ))}
    </figcaption>
  );
}
