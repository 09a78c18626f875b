// Hand-made SVG charts, rendered on the server: no chart library. Each is drawn twice, for a wide
// and for a narrow screen (a 720-unit drawing shrunk to a phone would make its text unreadable);
// CSS shows one. A small client component adds the tooltip.
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

const WIDE = { width: 720, height: 220, labels: 8 };
const NARROW = { width: 360, height: 240, labels: 3 };
const MARGIN = { top: 10, right: 8, bottom: 26, left: 40 };

/** A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value) ?? 10 * power);
}

export function StackedBarChart({ title, buckets, series }: { title: string; buckets: StackedBucket[]; series: ChartSeries[] }) {
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <ChartTooltip>
        <div className="chart-wide">
          <StackedBars title={title} buckets={buckets} series={series} size={WIDE} />
        </div>
        <div className="chart-narrow">
          <StackedBars title={title} buckets={buckets} series={series} size={NARROW} />
        </div>
      </ChartTooltip>
      <Legend series={series} />
    </figure>
  );
}

function StackedBars({ title, buckets, series, size }: { title: string; buckets: StackedBucket[]; series: ChartSeries[]; size: typeof WIDE }) {
  const { width: WIDTH, height: HEIGHT } = size;
  const totals = buckets.map((bucket) => series.reduce((sum, entry) => sum + (bucket.values[entry.key] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const slot = plotWidth / Math.max(buckets.length, 1);
  const barWidth = Math.max(1, slot * 0.75);
  const labelEvery = Math.ceil(buckets.length / size.labels);
  const y = (value: number) => MARGIN.top + plotHeight - (value / max) * plotHeight;

  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={title}>
      {[0, 0.5, 1].filter((fraction) => Number.isInteger(max * fraction)).map((fraction) => (
        <g key={fraction}>
          <line className="grid-line" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(max * fraction)} y2={y(max * fraction)} />
          <text className="axis" x={MARGIN.left - 6} y={y(max * fraction) + 4} textAnchor="end">
            {(max * fraction).toLocaleString('es-GT')}
          </text>
        </g>
      ))}
      {buckets.map((bucket, index) => {
        const x = MARGIN.left + index * slot + (slot - barWidth) / 2;
        const tip = [bucket.title, ...series.map((entry) => `${entry.label}: ${(bucket.values[entry.key] ?? 0).toLocaleString('es-GT')}`), `Total: ${totals[index]!.toLocaleString('es-GT')}`].join('\n');
        let base = 0;
        return (
          <g key={bucket.title + index} data-tip={tip}>
            <rect className="hit" x={MARGIN.left + index * slot} y={MARGIN.top} width={slot} height={plotHeight} fill="transparent" />
            {series.map((entry) => {
              const value = bucket.values[entry.key] ?? 0;
              if (value === 0) return null;
              const top = y(base + value);
              const height = y(base) - top;
              base += value;
              return <rect key={entry.key} x={x} y={top} width={barWidth} height={Math.max(height, 0.5)} fill={entry.color} />;
            })}
            {index % labelEvery === 0 && (
              <text className="axis" x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
                {bucket.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

export interface GroupedBarRow {
  label: string;
  values: Record<string, number | null>;
}

/** Horizontal bars, one group per row (e.g. p50 and p95 per lookup). */
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
  const barHeight = 12;
  const groupHeight = series.length * (barHeight + 3) + 12;
  const labelWidth = 130;
  const width = WIDE.width;
  const height = rows.length * groupHeight + 4;
  const max = niceMax(Math.max(0, ...rows.flatMap((row) => series.map((entry) => row.values[entry.key] ?? 0))));
  const scale = (value: number) => ((width - labelWidth - 70) * value) / max;
  return (
    <figure className="chart" style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        {rows.map((row, rowIndex) => {
          const top = rowIndex * groupHeight + 4;
          return (
            <g key={row.label}>
              <text className="axis" x={0} y={top + groupHeight / 2} style={{ fontSize: 12 }}>
                {row.label}
              </text>
              {series.map((entry, seriesIndex) => {
                const value = row.values[entry.key] ?? null;
                const barTop = top + seriesIndex * (barHeight + 3);
                return (
                  <g key={entry.key}>
                    <rect x={labelWidth} y={barTop} width={Math.max(value ? scale(value) : 0, 1)} height={barHeight} fill={entry.color}>
                      <title>{`${row.label} · ${entry.label}: ${value === null ? 'sin datos' : `${value.toLocaleString('es-GT')} ${unit}`}`}</title>
                    </rect>
                    <text className="axis" x={labelWidth + (value ? scale(value) : 0) + 6} y={barTop + barHeight - 2}>
                      {value === null ? '—' : `${value.toLocaleString('es-GT')} ${unit}`}
                    </text>
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
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
