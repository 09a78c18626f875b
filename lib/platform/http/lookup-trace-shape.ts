// The shape of one lookup's trace, apart from the code that reads it from the request context, so
// the context can carry it without importing that code.
import type { LookupStage } from '@/lib/platform/metrics/registry';

export interface LookupTrace {
  /** success, a refusal reason, a source failure, or unhandled. */
  outcome?: string;
  integration?: string;
  /** The authenticated integration's id, for the trace of an answer that leaves no record (lib/core/request-traces). */
  integrationId?: number;
  stagesMs: Partial<Record<LookupStage, number>>;
  /** The source call's classified result (lib/sources/guard.ts). */
  upstream?: string;
  databaseRoundTrips: number;
}
