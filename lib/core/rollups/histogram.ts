import { LATENCY_BUCKET_BOUNDS_MS, LATENCY_BUCKET_COLUMNS } from '@/db/schema';

/** Counts per latency bucket, in LATENCY_BUCKET_COLUMNS order (the last is the overflow). */
export type LatencyHistogram = number[];

export function emptyHistogram(): LatencyHistogram {
  return LATENCY_BUCKET_COLUMNS.map(() => 0);
}

/** The bucket a response time falls in: the first bound it does not exceed, else the overflow. */
export function latencyBucketIndex(responseTimeMs: number): number {
  const index = LATENCY_BUCKET_BOUNDS_MS.findIndex((bound) => responseTimeMs <= bound);
  return index === -1 ? LATENCY_BUCKET_BOUNDS_MS.length : index;
}

export function addHistograms(into: LatencyHistogram, from: LatencyHistogram): LatencyHistogram {
  for (let index = 0; index < into.length; index++) into[index]! += from[index] ?? 0;
  return into;
}

/**
 * The q-quantile (0.5, 0.95) of the response times a histogram counted, interpolated linearly
 * inside its bucket as Prometheus' histogram_quantile does: exact to the bucket, approximate
 * within it. Null when nothing was counted; the overflow bucket answers with its lower bound.
 */
export function histogramQuantile(histogram: LatencyHistogram, q: number): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let index = 0; index < histogram.length; index++) {
    const count = histogram[index]!;
    if (count > 0 && seen + count >= rank) {
      const lower = index === 0 ? 0 : LATENCY_BUCKET_BOUNDS_MS[index - 1]!;
      const upper = LATENCY_BUCKET_BOUNDS_MS[index];
      if (upper === undefined) return lower;
      return lower + ((upper - lower) * (rank - seen)) / count;
    }
    seen += count;
  }
  return LATENCY_BUCKET_BOUNDS_MS.at(-1)!;
}
