import type { LookupKind } from '@/db/schema';

/** One query that reached a source, as it is recorded. */
export interface QueryRecordInput {
  integrationId: number;
  lookup: LookupKind;
  httpStatus: number;
  responseTimeMs: number;
  nit: string | null;
  cui: string | null;
  errorMessage: string | null;
  requestId: string;
}
