import type { LookupKind } from '@/db/schema';

/** One query that reached a source, as it is recorded. */
export interface QueryRecordInput {
  integrationId: number;
  lookup: LookupKind;
  httpStatus: number;
  responseTimeMs: number;
  /** As sent; for /rtu/nits the batch's NITs joined by commas. */
  nit: string | null;
  cui: string | null;
  /**
   * Every identifier sent, one per element (each NIT of an /rtu/nits batch), stored normalized
   * for search; by default the nit and the cui.
   */
  identifiers?: string[];
  errorMessage: string | null;
  requestId: string;
}
