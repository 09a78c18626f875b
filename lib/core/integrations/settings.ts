import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// Each instance's copy of the integrations' credentials and flags (directory.ts): how often it is
// reloaded, how old it may be before lookups stop trusting it, and how often the tokens' last use
// noted in memory is written.

const INTEGRATION_CACHE_REFRESH_MAX_MS = 10_000;

export const INTEGRATION_DIRECTORY_SETTINGS = defineSettings({
  title: "Integrations' credentials copy (lib/core/integrations)",
  shape: {
    INTEGRATION_CACHE_REFRESH_MS: integer(2_000, 100, INTEGRATION_CACHE_REFRESH_MAX_MS),
    INTEGRATION_CACHE_MAX_AGE_MS: integer(30_000, 1_000, 300_000),
    // The console's "último uso" is at most a minute behind (lib/core/credentials/last-use.ts).
    TOKEN_LAST_USE_FLUSH_MS: integer(30_000, 100, 60_000),
  },
  docs: {
    INTEGRATION_CACHE_REFRESH_MS: 'How often each instance reloads the integrations (credentials and flags) from the database, the bound when an announcement of a change is lost (at most 10000).',
    INTEGRATION_CACHE_MAX_AGE_MS: 'A copy older than this (its reloads late or failing) answers lookups "unavailable" until a reload succeeds; at least twice the refresh.',
    TOKEN_LAST_USE_FLUSH_MS: "How often each instance writes its tokens' last use, noted in memory per lookup (at most 60000).",
  },
  refine: (settings, ctx) => {
    // A refresh interval out of its own range is reported alone.
    if (settings.INTEGRATION_CACHE_REFRESH_MS <= INTEGRATION_CACHE_REFRESH_MAX_MS && settings.INTEGRATION_CACHE_MAX_AGE_MS < 2 * settings.INTEGRATION_CACHE_REFRESH_MS) {
      // One late reload must not already stop the lookups.
      ctx.addIssue({ code: 'custom', path: ['INTEGRATION_CACHE_MAX_AGE_MS'], message: 'must be at least twice INTEGRATION_CACHE_REFRESH_MS' });
    }
  },
});

export type IntegrationDirectorySettings = SettingsOf<typeof INTEGRATION_DIRECTORY_SETTINGS>;

/** The process's directory settings, read on first use. */
export const integrationDirectorySettings = (): IntegrationDirectorySettings => INTEGRATION_DIRECTORY_SETTINGS.current();
