import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { requireSet } from '@/lib/platform/settings/rules';
import { base64Key, base64Keys, optional } from '@/lib/platform/settings/values';

// Personal data at rest (docs/operations.md, "Personal data at rest"): the key that encrypts the
// NITs and CUIs (AES-256-GCM) and the separate key of their search hashes (HMAC-SHA-256).
// Development generates each once into .data/ (keys.ts). The PREVIOUS lists hold the keys being
// rotated away, still read until `npm run cli -- personal-data:reseal` has finished.
export const SEALING_SETTINGS = defineSettings({
  title: 'Personal data at rest (lib/core/sealing)',
  shape: {
    PERSONAL_DATA_KEY: optional(base64Key),
    PERSONAL_DATA_PREVIOUS_KEYS: base64Keys,
    PERSONAL_DATA_SEARCH_KEY: optional(base64Key),
    PERSONAL_DATA_PREVIOUS_SEARCH_KEYS: base64Keys,
  },
  docs: {
    PERSONAL_DATA_KEY: 'Encrypts the NITs and CUIs at rest (AES-256-GCM): 32 random bytes in base64 (openssl rand -base64 32), the same on every instance. Development generates one into .data/.',
    PERSONAL_DATA_PREVIOUS_KEYS: 'Keys being rotated away, comma-separated: still read until `personal-data:reseal` has finished.',
    PERSONAL_DATA_SEARCH_KEY: "Keys the identifiers' search hashes (HMAC-SHA-256): 32 random bytes in base64, different from PERSONAL_DATA_KEY. Development generates one into .data/.",
    PERSONAL_DATA_PREVIOUS_SEARCH_KEYS: 'Search keys being rotated away, comma-separated, read until the reseal has finished.',
  },
  refine: (settings, ctx, appEnv) => {
    if (settings.PERSONAL_DATA_KEY && settings.PERSONAL_DATA_SEARCH_KEY && settings.PERSONAL_DATA_KEY.trim() === settings.PERSONAL_DATA_SEARCH_KEY.trim()) {
      // One leaked key must not give away both the identifiers and a way to test guesses against the hashes.
      ctx.addIssue({ code: 'custom', path: ['PERSONAL_DATA_SEARCH_KEY'], message: 'must differ from PERSONAL_DATA_KEY' });
    }
    if (appEnv === 'production') requireSet(settings, ctx, ['PERSONAL_DATA_KEY', 'PERSONAL_DATA_SEARCH_KEY'], 'APP_ENV=production');
  },
});

export type SealingSettings = SettingsOf<typeof SEALING_SETTINGS>;
