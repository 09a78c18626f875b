// Availability of each source from the rollups: the share of the calls that reached the source
// and did not fail for the source's reasons. Refusals before the source (credentials, limits,
// balance, malformed requests) and calls the breaker or the bulkhead failed fast never reached it
// and are not query records, so they are not in the rollups either. A "not found" or a rejected
// identifier is the source answering: a success.
import type { LookupKind } from '@/db/schema';
import type { SourceName } from '@/lib/sources/guard';
import { LOOKUP_SOURCE } from '@/lib/vocabulary/lookups';


/**
 * The recorded statuses that mean the source failed us (docs/decisions.md). The registries record
 * "failure querying the registry" as 500: the registry did not answer, answered 5xx, or refused the
 * gateway itself (its credentials, its quota). The catalogs record the source's own refusals of
 * the gateway (401 credentials, 402 the service's balance, 403 query type, 429 its limit) and 502
 * for no answer, a timeout or a 5xx; their 500 is the gateway's own failure, not the source's.
 */
const SOURCE_FAILURE_STATUSES: Record<SourceName, ReadonlySet<number>> = {
  renap: new Set([500]),
  rtu: new Set([500]),
  catalog: new Set([401, 402, 403, 429, 502]),
};

export function isSourceFailure(lookup: LookupKind, httpStatus: number): boolean {
  return SOURCE_FAILURE_STATUSES[LOOKUP_SOURCE[lookup]].has(httpStatus);
}

/** One rollup cell: the recorded queries of one bucket, lookup and status. */
export interface RecordedCalls {
  bucket: Date;
  lookup: LookupKind;
  httpStatus: number;
  queries: number;
}

export interface AvailabilityBucket {
  /** Start of the hour, or of the Guatemalan day. */
  start: Date;
  calls: number;
  failures: number;
  /** (calls - failures) / calls, or null when no call reached the source in the bucket. */
  availability: number | null;
}

/**
 * Each source's availability per bucket, for the buckets given (oldest first; a bucket without
 * calls is kept, with availability null). Cells outside the buckets are ignored.
 */
export function availabilityByBucket(cells: readonly RecordedCalls[], bucketStarts: readonly Date[]): Record<SourceName, AvailabilityBucket[]> {
  const empty = () => bucketStarts.map((start) => ({ start, calls: 0, failures: 0, availability: null as number | null }));
  const bySource: Record<SourceName, AvailabilityBucket[]> = { renap: empty(), rtu: empty(), catalog: empty() };
  const index = new Map(bucketStarts.map((start, position) => [start.getTime(), position]));
  for (const cell of cells) {
    const position = index.get(cell.bucket.getTime());
    if (position === undefined) continue;
    const bucket = bySource[LOOKUP_SOURCE[cell.lookup]][position]!;
    bucket.calls += cell.queries;
    if (isSourceFailure(cell.lookup, cell.httpStatus)) bucket.failures += cell.queries;
  }
  for (const buckets of Object.values(bySource)) {
    for (const bucket of buckets) bucket.availability = bucket.calls === 0 ? null : (bucket.calls - bucket.failures) / bucket.calls;
  }
  return bySource;
}

/** The availability of several buckets together (the 90 days' figure): weighted by calls. */
export function overallAvailability(buckets: readonly AvailabilityBucket[]): number | null {
  const calls = buckets.reduce((sum, bucket) => sum + bucket.calls, 0);
  const failures = buckets.reduce((sum, bucket) => sum + bucket.failures, 0);
  return calls === 0 ? null : (calls - failures) / calls;
}
