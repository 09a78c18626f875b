import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';
import { SOURCE_SETTINGS } from '@/lib/sources/settings';

// The lookups' turn (lookup-admission.ts): how many run at once per instance past their checks,
// and how many more may wait before the excess is answered "unavailable" at once.
export const ADMISSION_SETTINGS = defineSettings({
  title: "Lookups' admission (lib/core/admission)",
  shape: {
    LOOKUP_CONCURRENCY: integer(64, 1, 10_000),
    LOOKUP_QUEUE_MAX: integer(5_000, 0, 1_000_000),
  },
  docs: {
    LOOKUP_CONCURRENCY: 'Lookups past their checks (credentials, flag, limit, body) running at once per instance; at most SOURCE_BULKHEAD_LIMIT + SOURCE_BULKHEAD_QUEUE.',
    LOOKUP_QUEUE_MAX: 'Lookups waiting their turn; past that one is answered "unavailable" at once, never charged or recorded.',
  },
  uses: [SOURCE_SETTINGS],
  refine: (settings, ctx) => {
    if (settings.LOOKUP_CONCURRENCY > settings.SOURCE_BULKHEAD_LIMIT + settings.SOURCE_BULKHEAD_QUEUE) {
      // Admitted lookups must never find a source's bulkhead full: that answer is a failure, not a wait.
      ctx.addIssue({ code: 'custom', path: ['LOOKUP_CONCURRENCY'], message: 'must not exceed SOURCE_BULKHEAD_LIMIT + SOURCE_BULKHEAD_QUEUE' });
    }
  },
});

export type AdmissionSettings = SettingsOf<typeof ADMISSION_SETTINGS>;

/** The process's admission settings, read on first use. */
export const admissionSettings = (): AdmissionSettings => ADMISSION_SETTINGS.current();
