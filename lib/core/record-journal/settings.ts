import { z } from 'zod';
import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireSet } from '@/lib/platform/settings/rules';
import { optional } from '@/lib/platform/settings/values';

// Where query records the database did not take (it was away when the source had answered) are
// kept until it does (docs/operations.md, "Recording while the database is away").
export const RECORD_JOURNAL_SETTINGS = defineSettings({
  title: 'Record journal (lib/core/record-journal)',
  shape: {
    RECORD_JOURNAL_DIR: optional(z.string().min(1)),
  },
  docs: {
    RECORD_JOURNAL_DIR: "This instance's journal: one directory per instance, on storage that survives a restart. Development: .data/record-journal.",
  },
  refine: (settings, ctx, appEnv) => {
    if (appEnv === 'production') requireSet(settings, ctx, ['RECORD_JOURNAL_DIR'], 'APP_ENV=production');
  },
});

export type RecordJournalSettings = SettingsOf<typeof RECORD_JOURNAL_SETTINGS>;
