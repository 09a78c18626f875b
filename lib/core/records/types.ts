import type { LookupKind } from '@/db/schema';
import type { RecordFailure } from './failure';

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
  /** The source's detail, in English, for engineers. */
  errorMessage: string | null;
  /** What went wrong, as data (lib/core/records/failure.ts); absent on a success (and on older journal entries). */
  failure?: RecordFailure | null;
  /** A 200 that carried no data: true; a 200 with data: false; absent when not a 200. */
  answerEmpty?: boolean | null;
  /** Catalogs only: the request's `actualizado`, and whether it carried a `date_of_birth` (never the date). */
  actualizado?: boolean | null;
  dateOfBirthSent?: boolean | null;
  /**
   * A NIT and a CUI the source's 200 answer gave together (the same person's two identifiers):
   * linked for "¿Quién consultó?" (identifier_links). Never stored in the record itself.
   */
  answeredPair?: { nit: string; cui: string } | null;
  requestId: string;
}
