import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// The public status (/estado, GET /api/estado): how long an instance answers from what it last read.
export const STATUS_PAGE_SETTINGS = defineSettings({
  title: 'Public status page (lib/reactions/status-page)',
  shape: {
    STATUS_PAGE_CACHE_SECONDS: integer(30, 1, 300),
  },
  docs: {
    STATUS_PAGE_CACHE_SECONDS: "The public status is read at most once per this many seconds per instance, and browsers and shared caches may keep GET /api/estado's answer as long (1-300).",
  },
});

export type StatusPageSettings = SettingsOf<typeof STATUS_PAGE_SETTINGS>;

/** The process's status page settings, read on first use. */
export const statusPageSettings = (): StatusPageSettings => STATUS_PAGE_SETTINGS.current();
