import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// The dashboard's hourly rollups (job.ts): how often the queued records are added up.
export const ROLLUP_SETTINGS = defineSettings({
  title: 'Rollups (lib/core/rollups)',
  shape: {
    ROLLUP_INTERVAL_MS: integer(2_000, 100),
  },
  docs: {
    ROLLUP_INTERVAL_MS: "How often new query records are added to the hourly rollups the dashboard reads, and each instance's refusal counts and traces are written.",
  },
});

export type RollupSettings = SettingsOf<typeof ROLLUP_SETTINGS>;
