import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// Bulk jobs (docs/decisions.md, "Bulk jobs"): how many items each instance runs, the share of an
// integration's catalog limit its jobs may spend (the rest stays for its interactive lookups), how
// often an idle runner asks for work, how long results are kept, and /api/lotes' own limit.
export const BULK_SETTINGS = defineSettings({
  title: 'Bulk jobs (lib/flows/bulk)',
  shape: {
    BULK_CONCURRENCY: integer(4, 0, 1_000),
    BULK_LIMIT_SHARE_PERCENT: integer(50, 1, 100),
    BULK_POLL_MS: integer(1_000, 50),
    BULK_RESULT_RETENTION_DAYS: integer(30, 1),
    // Its own counter, so following a job never spends the catalog limit its items and lookups share.
    BULK_API_PER_MINUTE: integer(60, 1),
  },
  docs: {
    BULK_CONCURRENCY: 'Items each instance runs at once (0: this instance runs no jobs).',
    BULK_LIMIT_SHARE_PERCENT: "The share of an integration's per-minute catalog limit its jobs may spend, in percent; the rest stays for its lookups.",
    BULK_POLL_MS: 'How often an idle instance asks the database for items to run.',
    BULK_RESULT_RETENTION_DAYS: "Days a finished (or cancelled) job's results are kept before they are deleted.",
    BULK_API_PER_MINUTE: 'Requests to /api/lotes (submit, state, results, cancel) per integration and minute, a counter of their own.',
  },
});

export type BulkSettings = SettingsOf<typeof BULK_SETTINGS>;

/** The process's bulk job settings, read on first use. */
export const bulkSettings = (): BulkSettings => BULK_SETTINGS.current();
