// Every way a catalog lookup can end, apart from the code that runs one: the stored answers of
// Idempotency-Key replays (lib/flows/lookups/replayable-answer.ts) are built from it without importing the lookup.
import type { CatalogKind, CatalogResultByKind } from '@/lib/sources/catalogs';
import type { StoredAnswer } from '@/lib/core/idempotency/store';
import type { SourceFailure } from '@/lib/sources/outcomes';
import type { CatalogRequestProblem } from './catalog-request';
import type { Unavailable } from './unavailable';

/** A catalog's record (lib/sources/catalogs.ts). */
export type CatalogData = CatalogResultByKind[CatalogKind];

/** Every way a catalog lookup can end; lib/surfaces/api maps each to the contract's status and message. */
export type CatalogOutcome =
  | { kind: 'success'; data: CatalogData }
  | { kind: 'credentials_missing' }
  | { kind: 'credentials_invalid' }
  | { kind: 'not_enabled' }
  | { kind: 'rate_limited' }
  | { kind: 'invalid_request'; problem: CatalogRequestProblem }
  | { kind: 'balance_exhausted' }
  | { kind: 'source_failure'; failure: SourceFailure }
  | Unavailable
  /**
   * A bulk item (lib/flows/bulk) whose claim was lost while it waited for its turn: another instance took
   * the item, or its job was cancelled or paused. Nothing was held, charged or recorded.
   */
  | { kind: 'claim_lost' }
  /** The stored answer of an earlier request with the same Idempotency-Key (lib/core/idempotency). */
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'unhandled' };
