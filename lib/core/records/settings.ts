import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer, optional } from '@/lib/platform/settings/values';

// How long query records are kept (docs/operations.md, "Retention of query records"), and where
// the daily purge archives them first, if anywhere.
export const RECORD_RETENTION_SETTINGS = defineSettings({
  title: "Query records' retention (lib/core/records)",
  shape: {
    QUERY_RECORD_RETENTION_MONTHS: integer(24, 1),
    QUERY_RECORD_RETENTION_EXPORT_DIR: optional(z.string().min(1)),
  },
  docs: {
    QUERY_RECORD_RETENTION_MONTHS: "Query records older than this are purged once a day, in small batches; the rollups (the dashboard's figures) and the ledger are kept.",
    QUERY_RECORD_RETENTION_EXPORT_DIR: 'When set, each run first writes the records it purges there as gzipped CSV, NIT and CUI masked; nothing is purged if that write fails.',
  },
});

export type RecordRetentionSettings = SettingsOf<typeof RECORD_RETENTION_SETTINGS>;

/** The process's retention settings, read on first use. */
export const recordRetentionSettings = (): RecordRetentionSettings => RECORD_RETENTION_SETTINGS.current();
